import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { toNumber } from "./query";
import type { TimeseriesOutput, TimeseriesQuery } from "./schemas";
import { countPerBucket } from "./store/timeseries";
import { inBusinessZone } from "./zone";

/**
 * One value per bucket of the range, zero-filled, counted by the database. Day buckets start at
 * midnight in `tz` (23 or 25 hours long across a DST change); hour buckets are consecutive hours
 * aligned to the hours of `tz`. Each `t` is the bucket's start as a UTC instant; the first bucket
 * may start before `from` and the last end after `to`, but only rows inside [from, to) count.
 */
export async function getTimeseries({ ctx, query: asked }: { ctx: ServiceContext; query: TimeseriesQuery }): Promise<TimeseriesOutput> {
  const query = await inBusinessZone(ctx, asked);
  const from = query.from.toISOString();
  const to = query.to.toISOString();
  const tz = query.tz;
  const rows = await countPerBucket(ctx.db, { metric: query.metric, interval: query.interval, accountId: ctx.accountId, from, to, tz });
  return {
    metric: query.metric,
    interval: query.interval,
    from,
    to,
    tz,
    data: rows.map((row) => ({ t: row.t, value: toNumber(row.value) })),
  };
}
