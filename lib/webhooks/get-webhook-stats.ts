import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { attemptsPerBucket, attemptStats, findWebhook } from "./store";
import { type StatsWindow, statsWindows, type WebhookStats } from "./schemas";

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const num = (value: number | string | null) => (value === null ? null : Number(value));

/**
 * Attempt statistics of one webhook over the window, computed by the database. Counts,
 * success rate and durations cover the attempts started in the window (success_rate =
 * succeeded / (succeeded + failed), null when none finished; durations over finished
 * attempts). last_success_at / last_failure_at and consecutive_failures (failed deliveries
 * in a row) describe the webhook as a whole, whatever the window.
 */
export async function getWebhookStats({ ctx, id, window, now = new Date() }: { ctx: ServiceContext<"user">; id: string; window: StatsWindow; now?: Date }): Promise<WebhookStats> {
  const db = ctx.db;
  const webhook = await findWebhook(db, ctx.accountId, id);
  const since = new Date(now.getTime() - statsWindows[window]);
  const row = await attemptStats(db, { accountId: ctx.accountId, webhookId: id, since });
  const done = row.succeeded + row.failed;
  return {
    window,
    total: row.total,
    succeeded: row.succeeded,
    failed: row.failed,
    pending: row.pending,
    success_rate: done === 0 ? null : Math.round((row.succeeded / done) * 10_000) / 10_000,
    avg_duration_ms: num(row.avg),
    p95_duration_ms: num(row.p95),
    last_success_at: iso(row.lastSuccess),
    last_failure_at: iso(row.lastFailure),
    consecutive_failures: webhook.consecutiveFailures,
  };
}

export type TimelineBucket = { t: string; succeeded: number; failed: number };

/** Attempts per hour (24h) or per day (7d, 30d) in UTC, every bucket present; for the settings chart. */
export async function getWebhookTimeline({ ctx, id, window, now = new Date() }: { ctx: ServiceContext<"user">; id: string; window: StatsWindow; now?: Date }): Promise<TimelineBucket[]> {
  const db = ctx.db;
  await findWebhook(db, ctx.accountId, id);
  const step = window === "24h" ? 3600 : 24 * 3600;
  const buckets = window === "24h" ? 24 : window === "7d" ? 7 : 30;
  const last = Math.floor(now.getTime() / 1000 / step) * step;
  const first = last - (buckets - 1) * step;
  const rows = await attemptsPerBucket(db, { accountId: ctx.accountId, webhookId: id, since: new Date(first * 1000), step });
  const byTime = new Map(rows.map((r) => [Number(r.bucket), { succeeded: r.succeeded, failed: r.failed }]));
  return Array.from({ length: buckets }, (_, i) => {
    const t = first + i * step;
    return { t: new Date(t * 1000).toISOString(), ...(byTime.get(t) ?? { succeeded: 0, failed: 0 }) };
  });
}
