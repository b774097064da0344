import { z } from "zod";
import "zod-openapi";
import { type IdKind, idPrefixes } from "@/lib/platform/ids";

// Building blocks of the public output schemas: plain strings at run time, described for the
// OpenAPI document.

/** A timestamp as the API writes it: ISO 8601 UTC with milliseconds. */
export const isoTimestamp = (description?: string) =>
  z.string().meta({ format: "date-time", example: "2026-11-22T10:15:30.123Z", ...(description ? { description } : {}) });

/** A prefixed identifier such as `conv_01jd...`. */
export const prefixedId = (kind: IdKind, description?: string) =>
  z.string().meta({
    description: description ?? `Identifier (\`${idPrefixes[kind]}_\` and a time-sortable random part).`,
    example: `${idPrefixes[kind]}_01jd2x8k3f0m6q1v9w4r7t5y2z`,
  });

/** A phone number as digits only (E.164 without `+`), as messages carry it. */
export const phoneDigits = (description: string) => z.string().meta({ description, example: "15551234567" });

/** The object without one key (an answer stored without its secret). */
export const omit = (body: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));

/**
 * A business-scoped user id (BSUID) as the network writes it: the customer's two-letter country
 * code, a period, then up to 128 letters and digits; a parent BSUID has `ENT.` after the code.
 */
export const NETWORK_USER_ID_PATTERN = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;
export const isNetworkUserId = (value: string) => NETWORK_USER_ID_PATTERN.test(value);
export const networkUserIdField = (description: string) =>
  z.string().meta({ description, example: "US.13491208655302741918" });
