import { eventType, NonRetriableError } from "inngest";
import { z } from "zod";
import { definitionOf, type JobRegistry, parsePayload } from "@/lib/jobs/define";
import { jobRegistry } from "@/lib/server/job-registry";
import { systemContext } from "@/lib/server/context";
import { inngest } from "../client";

export const jobRequestedData = z.object({
  jobId: z.number().int(),
  kind: z.string().min(1),
  payload: z.record(z.string(), z.unknown()),
});

export const jobRequested = eventType("chorus/job.requested", { schema: jobRequestedData });

/** Runs of one job before it is given up (each may ask to run again later). */
export const MAX_JOB_RUNS = 20;

type RunResult = { kind: "done" } | { kind: "failed"; error: string } | { kind: "retry"; waitMs: number; error: string | null };

/**
 * The Inngest function that runs any job kind of a registry, from the same definitions as the
 * local runner: the payload is parsed once with the kind's schema (one that does not parse fails
 * the job with the reason; an unknown kind is refused), then the handler runs in step `run-N`; when it asks to run
 * again later (`retryAt`), the function sleeps in step `retry-N` until then. A thrown error is
 * retried by Inngest with its backoff.
 */
export function createRunJobFunction(registry: JobRegistry) {
  return inngest.createFunction({ id: "run-job", name: "Run a background job", triggers: [jobRequested] }, async ({ event, step }) => {
    const data = jobRequestedData.safeParse(event.data);
    if (!data.success) throw new NonRetriableError(`invalid event data: ${data.error.issues[0]?.message ?? "job"}`);
    const { jobId, kind } = data.data;
    const definition = definitionOf(registry, kind);
    if (!definition) throw new NonRetriableError(`no handler for ${kind}`);
    const parsed = parsePayload(definition, data.data.payload);
    // As on the local runner: a payload that will never parse fails the job, with the reason.
    if (!parsed.ok) return { status: "failed", runs: 0, error: parsed.failed };
    for (let run = 1; run <= MAX_JOB_RUNS; run++) {
      const outcome: RunResult = await step.run(`run-${run}`, async (): Promise<RunResult> => {
        const now = new Date();
        const result = await definition.handler(parsed.payload, { jobId, attempt: run, now, system: systemContext() });
        // Nothing is claimed here, so no handler writes its own outcome: anything but an object is done.
        if (typeof result !== "object") return { kind: "done" };
        if (result && "retryAt" in result) return { kind: "retry", waitMs: Math.max(0, result.retryAt.getTime() - now.getTime()), error: result.error ?? null };
        if (result && "failed" in result) return { kind: "failed", error: result.failed };
        return { kind: "done" };
      });
      if (outcome.kind === "done") return { status: "done", runs: run };
      if (outcome.kind === "failed") return { status: "failed", runs: run, error: outcome.error };
      if (outcome.waitMs > 0) await step.sleep(`retry-${run}`, `${outcome.waitMs}ms`);
    }
    throw new NonRetriableError(`job ${jobId} (${kind}) still asked to run again after ${MAX_JOB_RUNS} runs`);
  });
}

/** Every job kind of the registry on Inngest. */
export const runJob = createRunJobFunction(jobRegistry);
