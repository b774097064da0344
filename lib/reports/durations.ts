import "server-only";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows, toNumber } from "./query";
import { splitRange } from "./rollups";

const DAY_MS = 86_400_000;

/**
 * Up to this many durations in a range, its medians and 90th percentiles are exact (read from
 * the durations themselves); above it they come from the per-day histograms, within one bucket
 * of the exact figure (see `bucketBounds`). Counts, sums and means are exact either way.
 */
const EXACT_UP_TO = 1_000;

export type DurationKind = "resolution" | "first_response";

/** One person's (or the whole account's) durations in a range. */
export type DurationStats = {
  /** Durations measured (closes; answered first responses). */
  count: number;
  /** First responses still unanswered (always 0 for resolutions). */
  unanswered: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
};

/**
 * The seconds a histogram bucket holds, [low, high): bucket 0 is [0, 1), bucket b >= 1 is
 * [2^((b-1)/4), 2^(b/4)), the same rule as the database's `chorus_report_bucket`.
 */
function bucketBounds(bucket: number): [number, number] {
  if (bucket <= 0) return [0, 1];
  return [2 ** ((bucket - 1) / 4), 2 ** (bucket / 4)];
}

/** The bucket of a duration in seconds (see `bucketBounds`). */
export function bucketOf(seconds: number): number {
  if (seconds < 1) return 0;
  return Math.min(1 + Math.floor((4 * Math.log(seconds)) / Math.log(2)), 32_000);
}

/** Percentile `p` (0..1) by linear interpolation between the closest ranks, as percentile_cont does. */
function exactPercentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const position = p * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/**
 * Percentile `p` (0..1) of durations known only by bucket, the way percentile_cont reads it: the
 * two ranks around the percentile's position, each placed inside its bucket as if the bucket's
 * durations were spread evenly across it, interpolated between. Each placed rank is less than
 * its bucket's width (under 19% of it, or 1 s below 1 s) from the true one, and so is the result.
 */
function histogramPercentile(buckets: Map<number, number>, p: number): number | null {
  const ordered = [...buckets.entries()].filter(([bucket, n]) => bucket >= 0 && n > 0).sort((a, b) => a[0] - b[0]);
  const total = ordered.reduce((sum, [, n]) => sum + n, 0);
  if (!total) return null;
  const at = (rank: number) => {
    let before = 0;
    for (const [bucket, n] of ordered) {
      if (rank < before + n) {
        const [low, high] = bucketBounds(bucket);
        return low + (high - low) * ((rank - before + 0.5) / n);
      }
      before += n;
    }
    const [low, high] = bucketBounds(ordered[ordered.length - 1][0]);
    return (low + high) / 2;
  };
  const position = p * (total - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const below = at(low);
  return below + (at(high) - below) * (position - low);
}

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

/**
 * The account's durations of one kind in [from, to) (`total`) and each person's (`byUser`,
 * keyed by user id; '' collects those of nobody). See `EXACT_UP_TO` for the precision.
 */
export async function durationStats({
  db,
  kind,
  accountId,
  from,
  to,
  exactUpTo = EXACT_UP_TO,
}: {
  db: Executor;
  kind: DurationKind;
  accountId: string;
  from: string;
  to: string;
  exactUpTo?: number;
}): Promise<{ total: DurationStats; byUser: Map<string, DurationStats> }> {
  const rows = await queryRows<HistogramRow>(db, histogram(kind, accountId, from, to));
  const measured = rows.filter((row) => toNumber(row.bucket) >= 0).reduce((sum, row) => sum + toNumber(row.n), 0);

  type Acc = { count: number; unanswered: number; sum: number; buckets: Map<number, number>; values: number[] };
  const empty = (): Acc => ({ count: 0, unanswered: 0, sum: 0, buckets: new Map(), values: [] });
  const total = empty();
  const perUser = new Map<string, Acc>();
  const of = (userId: string) => perUser.get(userId) ?? perUser.set(userId, empty()).get(userId)!;
  for (const row of rows) {
    const bucket = toNumber(row.bucket);
    const n = toNumber(row.n);
    for (const acc of [total, of(row.user_id)]) {
      if (bucket < 0) {
        acc.unanswered += n;
        continue;
      }
      acc.count += n;
      acc.sum += toNumber(row.total_s);
      acc.buckets.set(bucket, (acc.buckets.get(bucket) ?? 0) + n);
    }
  }

  const exact = measured <= exactUpTo;
  if (exact && measured > 0) {
    const within = (column: SQL) => sql`${column} >= ${from}::timestamptz and ${column} < ${to}::timestamptz`;
    const values = await queryRows<{ user_id: string; seconds: number | string | null }>(db, 
      sql`select user_id, seconds from (${rawDurations(kind, accountId, within)}) v where seconds is not null`,
    );
    for (const row of values) {
      const seconds = Number(row.seconds);
      total.values.push(seconds);
      of(row.user_id).values.push(seconds);
    }
  }

  const finish = (acc: Acc): DurationStats => {
    if (exact) {
      const sorted = acc.values.sort((a, b) => a - b);
      return {
        count: acc.count,
        unanswered: acc.unanswered,
        mean: sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : null,
        median: exactPercentile(sorted, 0.5),
        p90: exactPercentile(sorted, 0.9),
      };
    }
    return {
      count: acc.count,
      unanswered: acc.unanswered,
      mean: acc.count ? acc.sum / acc.count : null,
      median: histogramPercentile(acc.buckets, 0.5),
      p90: histogramPercentile(acc.buckets, 0.9),
    };
  };
  return { total: finish(total), byUser: new Map([...perUser.entries()].map(([userId, acc]) => [userId, finish(acc)])) };
}

/**
 * Conversations closed in [from, to): the account's (`total`) and per person (closed while
 * assigned to them), each conversation once however often it was closed in the range. The
 * closes of the range, less those that follow an earlier close of the same conversation (by
 * anyone, or by the same person) inside the range.
 */
export async function closedConversations({
  db,
  accountId,
  from,
  to,
  closes,
}: {
  db: Executor;
  accountId: string;
  from: string;
  to: string;
  /** The range's resolution figures (`durationStats` of kind "resolution"). */
  closes: { total: DurationStats; byUser: Map<string, DurationStats> };
}): Promise<{ total: number; byUser: Map<string, number> }> {
  const repeats = await queryRows<{ user_id: string; n: number | string }>(db, sql`
    select user_id, count(*)::int as n
    from report_close_repeats
    where account_id = ${accountId} and closed_at >= ${from}::timestamptz and closed_at < ${to}::timestamptz
      and previous_at >= ${from}::timestamptz
    group by 1`);
  const repeated = new Map(repeats.map((row) => [row.user_id, toNumber(row.n)]));
  const byUser = new Map<string, number>();
  for (const [userId, stats] of closes.byUser) {
    if (userId && stats.count) byUser.set(userId, stats.count - (repeated.get(userId) ?? 0));
  }
  return { total: closes.total.count - (repeated.get("") ?? 0), byUser };
}

/**
 * Conversations assigned to each person in [from, to) (by the `conversation.assigned` events),
 * each conversation once per person: the assignments of the range (whole UTC days from
 * report_assignment_days, the rest from report_assignments) less those that follow an earlier
 * assignment of the same conversation to the same person inside the range.
 */
export async function assignedConversations({ db, accountId, from, to }: { db: Executor; accountId: string; from: string; to: string }): Promise<Map<string, number>> {
  const range = splitRange(from, to, DAY_MS);
  const rows = await queryRows<{ user_id: string; n: number | string }>(db, sql`
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
  return new Map(rows.map((row) => [row.user_id, toNumber(row.n)]));
}

/** Conversations created in [from, to): whole UTC days from report_conversation_days, the rest from the conversations. */
export async function createdConversations({ db, accountId, from, to }: { db: Executor; accountId: string; from: string; to: string }): Promise<number> {
  const range = splitRange(from, to, DAY_MS);
  const [row] = await queryRows<{ n: number | string | null }>(db, sql`
    select coalesce(sum(n), 0)::int as n from (
      select d.created as n from report_conversation_days d
      where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
      union all
      select count(*) from conversations c where c.account_id = ${accountId} and ${range.edges("c")}
    ) counts`);
  return toNumber(row?.n);
}

/**
 * Satisfaction answers given in [from, to) per agent they belong to ('' for nobody) and score:
 * whole UTC days from report_rating_days, the rest from report_ratings.
 */
export async function ratings({ db, accountId, from, to }: { db: Executor; accountId: string; from: string; to: string }): Promise<{ user_id: string; score: number; n: number }[]> {
  const range = splitRange(from, to, DAY_MS);
  const edges = sql`((g.rated_at >= ${from}::timestamptz and g.rated_at < ${range.innerFrom}::timestamptz) or (g.rated_at >= ${range.innerTo}::timestamptz and g.rated_at < ${to}::timestamptz))`;
  const rows = await queryRows<{ user_id: string; score: number | string; n: number | string }>(db, sql`
    select user_id, score, sum(n)::int as n from (
      select d.user_id, d.score, d.n from report_rating_days d
      where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
      union all
      select coalesce(g.user_id, ''), g.score, 1 from report_ratings g where g.account_id = ${accountId} and ${edges}
    ) counts
    group by 1, 2
    having sum(n) <> 0`);
  return rows.map((row) => ({ user_id: row.user_id, score: toNumber(row.score), n: toNumber(row.n) }));
}
