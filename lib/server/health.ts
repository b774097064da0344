import "server-only";
import { and, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { jobs, webhookDeliveries } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { APP_VERSION } from "@/lib/server/version";

// A job due for longer than this means the runner is stuck or down.
const STALE_JOB_SECONDS = 300;

/**
 * The database and the background jobs as one account sees them: only its own jobs are
 * counted, so the report says nothing about other tenants' activity. With the local runner a
 * webhook delivery is its own job: the deliveries due and not claimed count too.
 */
export async function checkHealth({ accountId }: { accountId: string }) {
  const started = performance.now();
  let database: { status: "ok" | "error"; latency_ms: number };
  let jobsCheck: { status: "ok" | "degraded" | "error"; backend: string; due: number; oldest_due_age_s: number };
  const backend = getEnv().JOBS_BACKEND;
  try {
    const now = new Date();
    const [job] = await getDb()
      .select({ due: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${jobs.runAt})` })
      .from(jobs)
      .where(and(eq(jobs.accountId, accountId), inArray(jobs.status, ["pending", "running"]), lte(jobs.runAt, now)));
    const d = webhookDeliveries;
    const [delivery] =
      backend === "local"
        ? await getDb()
            .select({ due: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${d.nextAttemptAt})` })
            .from(d)
            .where(and(eq(d.accountId, accountId), eq(d.status, "pending"), lte(d.nextAttemptAt, now), or(isNull(d.lockedUntil), lt(d.lockedUntil, now))))
        : [{ due: 0, oldest: null }];
    const oldestDue = [job.oldest, delivery.oldest].filter((t): t is string => t !== null).map((t) => new Date(t).getTime());
    const row = { due: job.due + delivery.due, oldest: oldestDue.length ? Math.min(...oldestDue) : null };
    database = { status: "ok", latency_ms: Math.round(performance.now() - started) };
    const oldestAge = row.oldest ? Math.max(0, Math.round((Date.now() - new Date(row.oldest).getTime()) / 1000)) : 0;
    jobsCheck = { status: oldestAge > STALE_JOB_SECONDS ? "degraded" : "ok", backend, due: row.due, oldest_due_age_s: oldestAge };
  } catch {
    database = { status: "error", latency_ms: Math.round(performance.now() - started) };
    jobsCheck = { status: "error", backend, due: 0, oldest_due_age_s: 0 };
  }
  return {
    status: database.status === "ok" && jobsCheck.status === "ok" ? ("ok" as const) : ("degraded" as const),
    version: APP_VERSION,
    time: new Date().toISOString(),
    checks: { database, jobs: jobsCheck },
  };
}
