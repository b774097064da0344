import "server-only";
import type { ServiceContext, VerbContext } from "@/lib/auth/context";
import { ValidationError, zodDetails } from "@/lib/platform/errors";
import { loadBusinessProfile } from "@/lib/profile/business-profile";
import { type ReportRange, reportRangeQuery } from "./schemas";

/** The zone the business keeps its hours in (its profile's opening hours), else UTC. */
export async function businessTimeZone(ctx: Pick<VerbContext, "accountId" | "db">): Promise<string> {
  const profile = await loadBusinessProfile(ctx.db, ctx.accountId);
  return profile.hours?.timezone ?? "UTC";
}

/**
 * Reports speak one time zone, the business's: a range asked for without `tz` is placed in it
 * (its dates are whole days there, its day buckets start at its midnight). A `tz` given by the
 * caller is kept.
 */
export async function inBusinessZone<T extends ReportRange>(ctx: ServiceContext, range: T): Promise<T> {
  if (range.zoneGiven) return range;
  const tz = await businessTimeZone(ctx);
  if (tz === range.tz) return range;
  const placed = reportRangeQuery.safeParse({ ...range.input, tz });
  if (!placed.success) throw new ValidationError(zodDetails(placed.error));
  return { ...range, ...placed.data };
}

/** A day of the range's zone (YYYY-MM-DD) for file names: the first day, and the last day it includes. */
export function rangeDays(range: Pick<ReportRange, "from" | "to" | "tz">): { first: string; last: string } {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: range.tz, year: "numeric", month: "2-digit", day: "2-digit" });
  return { first: day.format(range.from), last: day.format(new Date(range.to.getTime() - 1)) };
}
