import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { type Job, jobs } from "@/db/schema";
import type { JobKind } from "./enqueue";

export type JobContext = { jobId: number; attempt: number };
/**
 * What a handler reports: nothing when done, `retryAt` to run again later (the handler's
 * own schedule), `failed` to stop for good. A thrown error retries with backoff.
 */
export type JobOutcome = void | { retryAt: Date; error?: string } | { failed: string };
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<JobOutcome>;
export type JobHandlers = Partial<Record<JobKind, JobHandler>>;

// A claimed row whose process died becomes due again once its lease runs out.
export const JOB_LEASE_MS = 2 * 60 * 1000;
const MAX_THROWN_ATTEMPTS = 10;

/**
 * Claims due rows for this process. SKIP LOCKED lets several server processes poll one
 * PostgreSQL database without taking each other's rows (PGlite has one connection).
 */
export async function claimDueJobs(db: Db, { limit = 10, now = new Date() } = {}): Promise<Job[]> {
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
    returning ${jobs.id} as id, ${jobs.kind} as kind, ${jobs.payload} as payload, ${jobs.attempts} as attempts`);
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
    id: number | string;
    kind: string;
    payload: Record<string, unknown> | string;
    attempts: number;
  }[];
  return list.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload,
    attempts: Number(r.attempts),
  })) as Job[];
}

function backoff(attempt: number) {
  return Math.min(60_000 * 2 ** (attempt - 1), 60 * 60_000);
}

/** Runs one claimed job and records its outcome. */
export async function runJob(db: Db, job: Pick<Job, "id" | "kind" | "payload" | "attempts">, handlers: JobHandlers) {
  const handler = handlers[job.kind as JobKind];
  const now = () => new Date();
  if (!handler) {
    await db.update(jobs).set({ status: "failed", lastError: `no handler for ${job.kind}`, lockedUntil: null, updatedAt: now() }).where(eq(jobs.id, job.id));
    return;
  }
  try {
    const outcome = await handler(job.payload, { jobId: job.id, attempt: job.attempts });
    if (outcome && "retryAt" in outcome) {
      await db
        .update(jobs)
        .set({ status: "pending", runAt: outcome.retryAt, lockedUntil: null, lastError: outcome.error ?? null, updatedAt: now() })
        .where(eq(jobs.id, job.id));
    } else if (outcome && "failed" in outcome) {
      await db.update(jobs).set({ status: "failed", lockedUntil: null, lastError: outcome.failed, updatedAt: now() }).where(eq(jobs.id, job.id));
    } else {
      await db.update(jobs).set({ status: "done", lockedUntil: null, lastError: null, updatedAt: now() }).where(eq(jobs.id, job.id));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${message}`);
    const give_up = job.attempts >= MAX_THROWN_ATTEMPTS;
    await db
      .update(jobs)
      .set({
        status: give_up ? "failed" : "pending",
        runAt: new Date(Date.now() + backoff(job.attempts)),
        lockedUntil: null,
        lastError: message.slice(0, 1000),
        updatedAt: now(),
      })
      .where(eq(jobs.id, job.id));
  }
}

/** Runs every job due now (and those they make due now) until none is left; for tests and benchmarks. */
export async function drainJobs(db: Db, handlers: JobHandlers, { now, maxRounds = 100 }: { now?: Date; maxRounds?: number } = {}) {
  let ran = 0;
  for (let round = 0; round < maxRounds; round++) {
    const due = await claimDueJobs(db, { limit: 50, now: now ?? new Date() });
    if (!due.length) break;
    for (const job of due) await runJob(db, job, handlers);
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
      let due: Job[] = [];
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
