import "server-only";

/** The conversions of the reports' raw rows to the numbers and instants they answer with. */

export const toNumber = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/** Seconds to the millisecond, or null when there is nothing to measure. */
export const toSeconds = (value: unknown): number | null =>
  value === null || value === undefined ? null : Math.round(Number(value) * 1000) / 1000;

export const toIso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** A mean score to 2 decimals, or null. */
export const toAverage = (value: unknown): number | null =>
  value === null || value === undefined ? null : Math.round(Number(value) * 100) / 100;
