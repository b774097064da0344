import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { jobs } from "@/db/schema";
import type { JobKind, JobPayloads } from "./define";

export const JOBS_CHANNEL = "chorus_jobs";

/** A job to write: its kind and that kind's payload (a payload of another shape does not compile). */
export type NewJob<K extends JobKind = JobKind> = { [Kind in K]: { kind: Kind; payload: JobPayloads[Kind]; accountId?: string; runAt?: Date } }[K];

/**
 * Writes a job row in the caller's transaction (transactional outbox): the work exists
 * exactly when the change that caused it is committed.
 */
export async function enqueueJob<K extends JobKind>(tx: Executor, job: NewJob<K>) {
  const [id] = await enqueueJobs(tx, [job]);
  return id;
}

/** Several job rows in one statement (an event fanned out to many webhooks), one wake-up. */
export async function enqueueJobs<K extends JobKind>(tx: Executor, list: NewJob<K>[]): Promise<number[]> {
  if (list.length === 0) return [];
  const now = new Date();
  const rows = await tx
    .insert(jobs)
    .values(
      list.map((job) => ({
        kind: job.kind,
        payload: job.payload,
        accountId: job.accountId,
        status: "pending" as const,
        runAt: job.runAt ?? now,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: jobs.id });
  // Wakes the local runner's lanes that take these kinds as soon as the transaction commits
  // instead of at their next poll.
  await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${[...new Set(list.map((job) => job.kind))].join(",")})`);
  return rows.map((row) => row.id);
}

/**
 * Retires the waiting (not yet claimed) jobs of a kind whose payload has these values, in the
 * caller's transaction: for work that must have a single runner, before enqueueing its
 * successor. A claimed one is not touched; its handler must check that it is still the current one.
 */
export async function retireWaitingJobs<K extends JobKind>(tx: Executor, { kind, accountId, payload }: { kind: K; accountId: string; payload: Partial<JobPayloads[K]> }) {
  await tx.execute(sql`update ${jobs} set status = 'done', last_error = 'superseded', updated_at = now()
    where ${jobs.kind} = ${kind} and ${jobs.status} = 'pending' and ${jobs.accountId} = ${accountId} and ${jobs.payload} @> ${JSON.stringify(payload)}::jsonb`);
}
