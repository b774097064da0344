import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { closes, queryRows, toNumber } from "./query";
import type { TimeseriesMetric, TimeseriesOutput, TimeseriesQuery } from "./schemas";
import { inBusinessZone } from "./zone";

/** The table, timestamp column and extra condition each metric counts. */
function metricSource(metric: TimeseriesMetric, accountId: string): { table: SQL; column: SQL; where: SQL } {
  switch (metric) {
    case "messages_received":
      return { table: sql`messages`, column: sql`created_at`, where: sql`account_id = ${accountId} and direction = 'inbound'` };
    case "messages_sent":
      return { table: sql`messages`, column: sql`created_at`, where: sql`account_id = ${accountId} and direction = 'outbound'` };
    case "conversations_created":
      return { table: sql`conversations`, column: sql`created_at`, where: sql`account_id = ${accountId}` };
    case "conversations_closed":
      // Each close as recorded when it happened: a reopened conversation keeps its close.
      return { table: sql`${closes(accountId)} all_closes`, column: sql`closed_at`, where: sql`true` };
  }
}

const isoText = (expression: SQL) => sql`to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * One value per bucket of the range, zero-filled, counted by the database. Day buckets start at
 * midnight in `tz` (23 or 25 hours long across a DST change); hour buckets are consecutive hours
 * aligned to the hours of `tz`. Each `t` is the bucket's start as a UTC instant; the first bucket
 * may start before `from` and the last end after `to`, but only rows inside [from, to) count.
 */
export async function getTimeseries({ ctx, query: asked }: { ctx: ServiceContext; query: TimeseriesQuery }): Promise<TimeseriesOutput> {
  const query = await inBusinessZone(ctx, asked);
  const { table, column, where } = metricSource(query.metric, ctx.accountId);
  const from = query.from.toISOString();
  const to = query.to.toISOString();
  const tz = query.tz;
  const inRange = sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`;

  const statement =
    query.interval === "day"
      ? sql`
        with buckets as (
          select (local_day at time zone ${tz}) as t
          from generate_series(
            date_trunc('day', ${from}::timestamptz at time zone ${tz}),
            (${to}::timestamptz - interval '1 millisecond') at time zone ${tz},
            interval '1 day'
          ) as local_day
        ),
        counts as (
          select (date_trunc('day', ${column} at time zone ${tz}) at time zone ${tz}) as t, count(*)::int as value
          from ${table} where ${where} and ${inRange}
          group by 1
        )
        select ${isoText(sql`buckets.t`)} as t, coalesce(counts.value, 0) as value
        from buckets left join counts on counts.t = buckets.t
        order by buckets.t`
      : sql`
        with origin as (
          select (date_trunc('hour', ${from}::timestamptz at time zone ${tz}) at time zone ${tz}) as t
        ),
        buckets as (
          select generate_series(origin.t, ${to}::timestamptz - interval '1 millisecond', interval '1 hour') as t from origin
        ),
        counts as (
          select date_bin(interval '1 hour', ${column}, (select t from origin)) as t, count(*)::int as value
          from ${table} where ${where} and ${inRange}
          group by 1
        )
        select ${isoText(sql`buckets.t`)} as t, coalesce(counts.value, 0) as value
        from buckets left join counts on counts.t = buckets.t
        order by buckets.t`;

  const rows = await queryRows<{ t: string; value: number | string }>(ctx.db, statement);
  return {
    metric: query.metric,
    interval: query.interval,
    from,
    to,
    tz,
    data: rows.map((row) => ({ t: row.t, value: toNumber(row.value) })),
  };
}
