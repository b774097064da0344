import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { jobs } from "@/db/schema";

export const JOBS_CHANNEL = "chorus_jobs";

export type JobKind = "webhook.deliver" | "webhook.verify" | "message.send" | "message.simulate-status" | "message.fetch-media" | "message.auto-reply";

/**
 * Writes a job row in the caller's transaction (transactional outbox): the work exists
 * exactly when the change that caused it is committed.
 */
export async function enqueueJob(
  tx: Executor,
  job: { kind: JobKind; payload: Record<string, unknown>; accountId?: string; runAt?: Date },
) {
  const now = new Date();
  const [row] = await tx
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload,
      accountId: job.accountId,
      status: "pending",
      runAt: job.runAt ?? now,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: jobs.id });
  // Wakes the local runner as soon as the transaction commits instead of at its next poll.
  await tx.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
  return row.id;
}
