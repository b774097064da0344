import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import type { TimeseriesMetric, TimeseriesQuery } from "../schemas";
import { closes, queryRows } from "./query";

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
 * The metric's count per bucket (`day` or `hour` in `tz`) of [from, to), zero-filled, each `t`
 * the bucket's start as a UTC instant.
 */
export async function countPerBucket(
  db: Executor,
  { metric, interval, accountId, from, to, tz }: { metric: TimeseriesMetric; interval: TimeseriesQuery["interval"]; accountId: string; from: string; to: string; tz: string },
) {
  const { table, column, where } = metricSource(metric, accountId);
  const inRange = sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`;

  const statement =
    interval === "day"
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

  return queryRows<{ t: string; value: number | string }>(db, statement);
}
