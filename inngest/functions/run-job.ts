import { eventType, NonRetriableError } from "inngest";
import { z } from "zod";
import type { JobKind } from "@/lib/jobs/enqueue";
import { jobHandlers } from "@/lib/server/job-handlers";
import { inngest } from "../client";

export const jobRequestedData = z.object({
  jobId: z.number().int(),
  kind: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});

export const jobRequested = eventType("chorus/job.requested", { schema: jobRequestedData });

/** Runs of one job before it is given up (each may ask to run again later). */
export const MAX_JOB_RUNS = 20;

/**
 * Any other kind of background work on Inngest: the kind's handler from lib/server/job-handlers.ts
 * runs in step `run-N`; when it asks to run again later (`retryAt`), the function sleeps
 * in step `retry-N` until then. A thrown error is retried by Inngest with its backoff.
 */
export const runJob = inngest.createFunction(
  { id: "run-job", name: "Run a background job", triggers: [jobRequested] },
  async ({ event, step }) => {
    const parsed = jobRequestedData.safeParse(event.data);
    if (!parsed.success) throw new NonRetriableError(`invalid event data: ${parsed.error.issues[0]?.message ?? "job"}`);
    const { jobId, kind, payload } = parsed.data;
    const handler = jobHandlers[kind as JobKind];
    if (!handler) throw new NonRetriableError(`no handler for ${kind}`);
    for (let run = 1; run <= MAX_JOB_RUNS; run++) {
      const outcome = await step.run(`run-${run}`, async () => {
        const now = new Date();
        const result = await handler(payload, { jobId, attempt: run, now });
        if (result && "retryAt" in result) return { kind: "retry" as const, waitMs: Math.max(0, result.retryAt.getTime() - now.getTime()), error: result.error ?? null };
        if (result && "failed" in result) return { kind: "failed" as const, error: result.failed };
        return { kind: "done" as const };
      });
      if (outcome.kind === "done") return { status: "done", runs: run };
      if (outcome.kind === "failed") return { status: "failed", runs: run, error: outcome.error };
      if (outcome.waitMs > 0) await step.sleep(`retry-${run}`, `${outcome.waitMs}ms`);
    }
    throw new NonRetriableError(`job ${jobId} (${kind}) still asked to run again after ${MAX_JOB_RUNS} runs`);
  },
);
