import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "./query";
import { splitRange } from "./rollups";

/** The queries of the reports' durations (first responses, resolutions), assignments, creations and ratings. */

const DAY_MS = 86_400_000;

export type DurationKind = "resolution" | "first_response";

type Range = { accountId: string; from: string; to: string };

/**
 * Rows of the range's durations from their own tables: `(user_id, seconds)`, seconds null for an
 * unanswered first response; a resolution time is never below 0, as the histograms count it.
 */
function rawDurations(kind: DurationKind, accountId: string, within: (column: SQL) => SQL): SQL {
  if (kind === "first_response") {
    return sql`
      select coalesce(f.reply_user_id, '') as user_id, extract(epoch from (f.reply_at - f.inbound_at))::float8 as seconds
      from report_first_responses f
      where f.account_id = ${accountId} and ${within(sql`f.inbound_at`)}`;
  }
  return sql`
    select coalesce(r.user_id, '') as user_id, greatest(r.value_s, 0) as seconds
    from reporting_events r
    where r.account_id = ${accountId} and r.name = 'conversation_resolved' and ${within(sql`r.created_at`)}
    union all
    select coalesce(i.user_id, '') as user_id, greatest(i.value_s, 0) as seconds
    from report_implicit_closes i
    where i.account_id = ${accountId} and ${within(sql`i.created_at`)}`;
}

type HistogramRow = { user_id: string; bucket: number | string; n: number | string; total_s: number | string };

/**
 * The histogram of [from, to) per person and bucket: whole UTC days from report_duration_days,
 * the parts of the range outside them (a zone's midnight is rarely UTC's) from the durations.
 */
function histogram(kind: DurationKind, accountId: string, from: string, to: string): SQL {
  const range = splitRange(from, to, DAY_MS);
  const edges = (column: SQL) =>
    sql`((${column} >= ${from}::timestamptz and ${column} < ${range.innerFrom}::timestamptz) or (${column} >= ${range.innerTo}::timestamptz and ${column} < ${to}::timestamptz))`;
  return sql`
    select user_id, bucket, sum(n)::int as n, sum(total_s)::float8 as total_s
    from (
      select d.user_id, d.bucket, d.n, d.total_s
      from report_duration_days d
      where d.account_id = ${accountId} and d.kind = ${kind}
        and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
      union all
      select e.user_id, chorus_report_bucket(e.seconds), 1, coalesce(e.seconds, 0)
      from (${rawDurations(kind, accountId, edges)}) e
    ) h
    group by 1, 2
    having sum(n) <> 0`;
}

/** The histogram rows `(user_id, bucket, n, total_s)` of one kind of duration in [from, to) (see `histogram`). */
export async function histogramRows(db: Executor, { kind, accountId, from, to }: Range & { kind: DurationKind }) {
  return queryRows<HistogramRow>(db, histogram(kind, accountId, from, to));
}

/** Each measured duration of one kind in [from, to) as `(user_id, seconds)`. */
export async function durationsOf(db: Executor, { kind, accountId, from, to }: Range & { kind: DurationKind }) {
  const within = (column: SQL) => sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`;
  return queryRows<{ user_id: string; seconds: number | string | null }>(db,
    sql`select user_id, seconds from (${rawDurations(kind, accountId, within)}) v where seconds is not null`,
  );
}

/** Per person ('' for nobody), the closes of [from, to) that follow an earlier close of the same conversation inside the range. */
export async function closeRepeats(db: Executor, { accountId, from, to }: Range) {
  return queryRows<{ user_id: string; n: number | string }>(db, sql`
    select user_id, count(*)::int as n
    from report_close_repeats
    where account_id = ${accountId} and closed_at >= ${from}::timestamptz and closed_at < ${to}::timestamptz
      and previous_at >= ${from}::timestamptz
    group by 1`);
}

/** Per person, the assignments of [from, to) less those that repeat an earlier one inside the range (only positive counts). */
export async function assignmentCounts(db: Executor, { accountId, from, to }: Range) {
  const range = splitRange(from, to, DAY_MS);
  return queryRows<{ user_id: string; n: number | string }>(db, sql`
    select user_id, sum(n)::int as n
    from (
      select d.user_id, d.n
      from report_assignment_days d
      where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
      union all
      select a.user_id, 1
      from report_assignments a
      where a.account_id = ${accountId} and ${range.edges("a")}
      union all
      select a.user_id, -1
      from report_assignments a
      where a.account_id = ${accountId} and a.previous_at is not null
        and a.created_at >= ${from}::timestamptz and a.created_at < ${to}::timestamptz and a.previous_at >= ${from}::timestamptz
    ) counts
    group by 1
    having sum(n) > 0`);
}

/** The conversations created in [from, to) as one row `(n)`. */
export async function createdCount(db: Executor, { accountId, from, to }: Range) {
  const range = splitRange(from, to, DAY_MS);
  const [row] = await queryRows<{ n: number | string | null }>(db, sql`
    select coalesce(sum(n), 0)::int as n from (
      select d.created as n from report_conversation_days d
      where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
      union all
      select count(*) from conversations c where c.account_id = ${accountId} and ${range.edges("c")}
    ) counts`);
  return row;
}

/** Survey answers of [from, to) per agent they belong to ('' for nobody) and score. */
export async function ratingCounts(db: Executor, { accountId, from, to }: Range) {
  const range = splitRange(from, to, DAY_MS);
  const edges = sql`((g.rated_at >= ${from}::timestamptz and g.rated_at < ${range.innerFrom}::timestamptz) or (g.rated_at >= ${range.innerTo}::timestamptz and g.rated_at < ${to}::timestamptz))`;
  return queryRows<{ user_id: string; score: number | string; n: number | string }>(db, sql`
    select user_id, score, sum(n)::int as n from (
      select d.user_id, d.score, d.n from report_rating_days d
      where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
      union all
      select coalesce(g.user_id, ''), g.score, 1 from report_ratings g where g.account_id = ${accountId} and ${edges}
    ) counts
    group by 1, 2
    having sum(n) <> 0`);
}
