import "server-only";
import type { Executor } from "@/db";
import { toNumber } from "./query";
import { assignmentCounts, closeRepeats, createdCount, type DurationKind, durationsOf, histogramRows, ratingCounts } from "./store/durations";

/**
 * Up to this many durations in a range, its medians and 90th percentiles are exact (read from
 * the durations themselves); above it they come from the per-day histograms, within one bucket
 * of the exact figure (see `bucketBounds`). Counts, sums and means are exact either way.
 */
const EXACT_UP_TO = 1_000;

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
  const rows = await histogramRows(db, { kind, accountId, from, to });
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
    const values = await durationsOf(db, { kind, accountId, from, to });
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
  const repeats = await closeRepeats(db, { accountId, from, to });
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
  const rows = await assignmentCounts(db, { accountId, from, to });
  return new Map(rows.map((row) => [row.user_id, toNumber(row.n)]));
}

/** Conversations created in [from, to): whole UTC days from report_conversation_days, the rest from the conversations. */
export async function createdConversations({ db, accountId, from, to }: { db: Executor; accountId: string; from: string; to: string }): Promise<number> {
  const row = await createdCount(db, { accountId, from, to });
  return toNumber(row?.n);
}

/**
 * Satisfaction answers given in [from, to) per agent they belong to ('' for nobody) and score:
 * whole UTC days from report_rating_days, the rest from report_ratings.
 */
export async function ratings({ db, accountId, from, to }: { db: Executor; accountId: string; from: string; to: string }): Promise<{ user_id: string; score: number; n: number }[]> {
  const rows = await ratingCounts(db, { accountId, from, to });
  return rows.map((row) => ({ user_id: row.user_id, score: toNumber(row.score), n: toNumber(row.n) }));
}
