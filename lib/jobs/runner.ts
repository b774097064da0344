import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { type Job, jobs } from "@/db/schema";
import type { JobKind } from "./enqueue";

/**
 * `attempt` counts claims of this row (1 on the first run); `now` is the clock the row was
 * claimed with, so a handler's "is it due yet" checks agree with the claim (tests and
 * benchmarks drive the runner with a simulated `now`).
 */
export type JobContext = { jobId: number; attempt: number; now: Date; createdAt?: Date };
/**
 * What a handler reports: nothing when done, `retryAt` to run again later (the handler's
 * own schedule), `failed` to stop for good. A thrown error retries with backoff.
 */
export type JobOutcome = void | { retryAt: Date; error?: string } | { failed: string };
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<JobOutcome>;
export type JobHandlers = Partial<Record<JobKind, JobHandler>>;

// A claimed row whose process died becomes due again once its lease runs out. The lease is
// longer than the longest webhook attempt (WEBHOOK_TIMEOUT_MS is at most 120 s) plus its
// bookkeeping, so a slow but live attempt is never claimed a second time.
// JOB_LEASE_MS shortens it where attempts are known to be quick (the cluster test).
export const JOB_LEASE_MS = Number(process.env.JOB_LEASE_MS) || 3 * 60 * 1000;
const MAX_THROWN_ATTEMPTS = 10;

/**
 * Claims due rows for this process. SKIP LOCKED lets several server processes poll one
 * PostgreSQL database without taking each other's rows (PGlite has one connection).
 */
export type ClaimedJob = Pick<Job, "id" | "kind" | "payload" | "attempts" | "createdAt"> & {
  /** The lease this claim holds; the outcome is recorded only while it still holds it. */
  lockedUntil: Date | null;
};

export async function claimDueJobs(db: Db, { limit = 10, now = new Date() } = {}): Promise<ClaimedJob[]> {
  const lease = new Date(now.getTime() + JOB_LEASE_MS);
  const rows = await db.execute(sql`
    update ${jobs} set status = 'running', locked_until = ${lease.toISOString()}::timestamptz,
      attempts = ${jobs.attempts} + 1, updated_at = ${now.toISOString()}::timestamptz
    where ${jobs.id} in (
      select ${jobs.id} from ${jobs}
      where ${jobs.status} in ('pending', 'running') and ${jobs.runAt} <= ${now.toISOString()}::timestamptz
        and (${jobs.lockedUntil} is null or ${jobs.lockedUntil} < ${now.toISOString()}::timestamptz)
      order by ${jobs.runAt}, ${jobs.id}
      limit ${limit}
      for update skip locked
    )
    returning ${jobs.id} as id, ${jobs.kind} as kind, ${jobs.payload} as payload, ${jobs.attempts} as attempts,
      ${jobs.createdAt} as created_at, ${jobs.runAt} as run_at`);
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
    id: number | string;
    kind: string;
    payload: Record<string, unknown> | string;
    attempts: number;
    created_at: Date | string;
    run_at: Date | string;
  }[];
  // RETURNING does not keep the subquery's order; due work runs oldest first.
  const ordered = list
    .map((r) => ({ ...r, runAt: toDate(r.run_at).getTime(), id: Number(r.id) }))
    .sort((x, y) => x.runAt - y.runAt || x.id - y.id);
  return ordered.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload,
    attempts: Number(r.attempts),
    createdAt: toDate(r.created_at),
    lockedUntil: lease,
  }));
}

/** A timestamptz from a raw query: a Date (PGlite) or text such as "2026-11-22 10:15:30.123+00" (postgres.js). */
function toDate(value: Date | string): Date {
  if (value instanceof Date) return value;
  const iso = value.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
  return new Date(iso);
}

function backoff(attempt: number) {
  return Math.min(60_000 * 2 ** (attempt - 1), 60 * 60_000);
}

/**
 * Runs one claimed job and records its outcome. The outcome is written only while this
 * claim still holds the lease: if the lease ran out and another process took the row over,
 * that process owns the outcome.
 */
export async function runJob(
  db: Db,
  job: Pick<ClaimedJob, "id" | "kind" | "payload" | "attempts"> & { lockedUntil?: Date | null; createdAt?: Date },
  handlers: JobHandlers,
  { now = new Date() }: { now?: Date } = {},
) {
  const handler = handlers[job.kind as JobKind];
  const held =
    job.lockedUntil instanceof Date
      ? and(eq(jobs.id, job.id), eq(jobs.lockedUntil, job.lockedUntil))
      : eq(jobs.id, job.id);
  const record = (values: Partial<typeof jobs.$inferInsert>) =>
    db
      .update(jobs)
      .set({ ...values, lockedUntil: null, updatedAt: new Date() })
      .where(held);
  if (!handler) {
    await record({ status: "failed", lastError: `no handler for ${job.kind}` });
    return;
  }
  try {
    const outcome = await handler(job.payload, { jobId: job.id, attempt: job.attempts, now, createdAt: job.createdAt });
    if (outcome && "retryAt" in outcome) {
      await record({ status: "pending", runAt: outcome.retryAt, lastError: outcome.error ?? null });
    } else if (outcome && "failed" in outcome) {
      await record({ status: "failed", lastError: outcome.failed });
    } else {
      await record({ status: "done", lastError: null });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`);
    const giveUp = job.attempts >= MAX_THROWN_ATTEMPTS;
    await record({
      status: giveUp ? "failed" : "pending",
      runAt: new Date(now.getTime() + backoff(job.attempts)),
      lastError: message.slice(0, 1000),
    });
  }
}

/** Runs every job due now (and those they make due now) until none is left; for tests and benchmarks. */
export async function drainJobs(db: Db, handlers: JobHandlers, { now, maxRounds = 100 }: { now?: Date; maxRounds?: number } = {}) {
  let ran = 0;
  for (let round = 0; round < maxRounds; round++) {
    const at = now ?? new Date();
    const due = await claimDueJobs(db, { limit: 50, now: at });
    if (!due.length) break;
    for (const job of due) await runJob(db, job, handlers, { now: at });
    ran += due.length;
  }
  return ran;
}

export type JobRunner = { stop: () => Promise<void>; wake: () => void };

/**
 * The in-process durable runner: polls for due rows every `pollMs`, or at once when woken
 * (a NOTIFY on commit), runs up to `concurrency` jobs at a time, and on stop waits for the
 * jobs in flight. Rows survive a crash: an unfinished claim is due again after its lease.
 */
export function startJobRunner({
  db,
  handlers,
  pollMs,
  concurrency = 8,
}: {
  db: Db;
  handlers: JobHandlers;
  pollMs: number;
  concurrency?: number;
}): JobRunner {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let again = false;
  const inFlight = new Set<Promise<void>>();

  async function poll() {
    do {
      again = false;
      const free = concurrency - inFlight.size;
      if (free <= 0 || stopped) break;
      let due: ClaimedJob[] = [];
      try {
        due = await claimDueJobs(db, { limit: free });
      } catch (error) {
        if (!stopped) console.error("job runner: claiming jobs failed", error);
      }
      for (const job of due) {
        const running = runJob(db, job, handlers)
          .catch((error) => console.error("job runner: recording an outcome failed", error))
          .finally(() => {
            inFlight.delete(running);
            wake();
          });
        inFlight.add(running);
      }
      if (due.length === free) again = true;
    } while (again && !stopped);
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(tick, pollMs);
  }

  function tick() {
    clearTimeout(timer);
    if (stopped) return;
    if (polling) {
      again = true;
      return;
    }
    polling = poll().finally(() => {
      polling = undefined;
      schedule();
    });
  }

  function wake() {
    if (!stopped) setImmediate(tick);
  }

  tick();
  return {
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await polling;
      await Promise.allSettled([...inFlight]);
    },
  };
}
