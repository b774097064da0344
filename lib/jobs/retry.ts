import { loggable } from "@/lib/platform/errors";
import type { SystemContext } from "@/lib/auth/context";
import { type BatchOutcome, type JobContext, OUTCOME_RECORDED } from "./define";
import { type ClaimedJob, JOBS_SOURCE, type Recorded } from "./source";

/** Runs of a job that keeps throwing before it is given up. */
const MAX_THROWN_ATTEMPTS = 10;

/** The wait after a thrown error: 1 min, doubling per attempt, at most 1 h. */
function backoff(attempt: number) {
  return Math.min(60_000 * 2 ** (attempt - 1), 60 * 60_000);
}

export type RunnableJob = Pick<ClaimedJob, "id" | "kind" | "payload" | "attempts"> & {
  source?: string;
  lockedUntil?: Date | null;
  createdAt?: Date;
  takeover?: boolean;
};

export function contextOf(job: RunnableJob, now: Date, system: SystemContext): JobContext {
  return {
    system,
    jobId: job.id,
    source: job.source ?? JOBS_SOURCE,
    attempt: job.attempts,
    now,
    createdAt: job.createdAt,
    takeover: job.takeover ?? false,
    claimed: job.lockedUntil instanceof Date,
  };
}

/**
 * What to write for a job once its handler settled: done, due again when the handler asked
 * (`retryAt`), failed for good, or (thrown) due again after the backoff until the 10th run.
 * Null: the handler wrote the outcome itself.
 */
export async function settle(job: RunnableJob, result: Promise<BatchOutcome>, now: Date): Promise<Recorded | null> {
  // A claimed row is written only while this claim holds it (its claim count is unchanged).
  const attempts = job.lockedUntil instanceof Date ? job.attempts : null;
  try {
    const outcome = await result;
    if (outcome === OUTCOME_RECORDED) return null;
    const claimed_at = now.toISOString();
    if (outcome && "retryAt" in outcome) {
      return { id: job.id, attempts, status: "pending", run_at: outcome.retryAt.toISOString(), last_error: outcome.error ?? null, claimed_at };
    }
    if (outcome && "failed" in outcome) return { id: job.id, attempts, status: "failed", run_at: null, last_error: outcome.failed, claimed_at };
    return { id: job.id, attempts, status: "done", run_at: null, last_error: null, claimed_at };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed: ${loggable(error)}`);
    const giveUp = job.attempts >= MAX_THROWN_ATTEMPTS;
    return {
      id: job.id,
      attempts,
      status: giveUp ? "failed" : "pending",
      run_at: new Date(now.getTime() + backoff(job.attempts)).toISOString(),
      last_error: message.slice(0, 1000),
      claimed_at: now.toISOString(),
    };
  }
}
