import "server-only";
import { and, eq, gte, sql } from "drizzle-orm";
import { webhookAttempts } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { findWebhook } from "./store";
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
  const finished = sql`${webhookAttempts.status} <> 'pending' and ${webhookAttempts.durationMs} is not null`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      succeeded: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'succeeded'))::int`,
      failed: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'failed'))::int`,
      pending: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'pending'))::int`,
      avg: sql<number | string | null>`round(avg(${webhookAttempts.durationMs}) filter (where ${finished}))`,
      p95: sql<number | string | null>`round((percentile_cont(0.95) within group (order by ${webhookAttempts.durationMs}) filter (where ${finished}))::numeric)`,
      lastSuccess: sql<Date | string | null>`(select max(a.attempted_at) from ${webhookAttempts} a where a.webhook_id = ${id} and a.status = 'succeeded')`,
      lastFailure: sql<Date | string | null>`(select max(a.attempted_at) from ${webhookAttempts} a where a.webhook_id = ${id} and a.status = 'failed')`,
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.webhookId, id), gte(webhookAttempts.attemptedAt, since)));
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
  const rows = await db
    .select({
      bucket: sql<number | string>`(floor(extract(epoch from ${webhookAttempts.attemptedAt}) / ${step}) * ${step})::float8`,
      succeeded: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'succeeded'))::int`,
      failed: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'failed'))::int`,
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.webhookId, id), gte(webhookAttempts.attemptedAt, new Date(first * 1000))))
    .groupBy(sql`1`);
  const byTime = new Map(rows.map((r) => [Number(r.bucket), { succeeded: r.succeeded, failed: r.failed }]));
  return Array.from({ length: buckets }, (_, i) => {
    const t = first + i * step;
    return { t: new Date(t * 1000).toISOString(), ...(byTime.get(t) ?? { succeeded: 0, failed: 0 }) };
  });
}
