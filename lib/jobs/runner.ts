import type { SystemContext } from "@/lib/auth/context";
import { type AnyJobDefinition, type BatchOutcome, definitionOf, type JobContext, type JobRegistry, parsePayload } from "./define";
import { contextOf, type RunnableJob, settle } from "./retry";
import type { ClaimedJob, Recorded } from "./source";
import { jobSources, sourceNamed } from "./sources";

/**
 * How claimed jobs run: each kind's definition is looked up in the registry, the payload is
 * parsed once with its schema (one that does not parse fails the job for good, with the
 * reason, and its handler never sees it), and the handler gets the parsed payload. With
 * `batches`, kinds that define a batch handler run many claimed jobs together.
 */
export type RunOptions = { batches?: boolean };

/** Starts every job of a claimed list: batch kinds together, the rest one by one. One promise per job, in order. */
export function startJobs(system: SystemContext, jobs: RunnableJob[], registry: JobRegistry, now: Date, { batches = false }: RunOptions = {}): Promise<BatchOutcome>[] {
  const results: Promise<BatchOutcome>[] = new Array(jobs.length);
  const batched = new Map<AnyJobDefinition, { index: number; payload: unknown; ctx: JobContext }[]>();
  jobs.forEach((job, index) => {
    const definition = definitionOf(registry, job.kind);
    if (!definition) {
      results[index] = Promise.resolve({ failed: `no handler for ${job.kind}` });
      return;
    }
    const parsed = parsePayload(definition, job.payload);
    if (!parsed.ok) {
      results[index] = Promise.resolve({ failed: parsed.failed });
      return;
    }
    const ctx = contextOf(job, now, system);
    if (batches && definition.batch) {
      batched.set(definition, [...(batched.get(definition) ?? []), { index, payload: parsed.payload, ctx }]);
      return;
    }
    results[index] = Promise.resolve().then(() => definition.handler(parsed.payload, ctx));
  });
  for (const [definition, items] of batched) {
    let started: Promise<BatchOutcome>[];
    try {
      started = definition.batch!(items.map(({ payload, ctx }) => ({ payload, ctx })));
    } catch (error) {
      started = items.map(() => Promise.reject(error));
    }
    items.forEach((item, n) => (results[item.index] = started[n]));
  }
  return results;
}

/** Runs one claimed job and records its outcome. */
export async function runJob(system: SystemContext, job: RunnableJob, registry: JobRegistry, { now = new Date() }: { now?: Date } = {}) {
  const [result] = startJobs(system, [job], registry, now);
  const recorded = await settle(job, result, now);
  if (recorded) await sourceNamed(job.source).record(system.db, [recorded]);
}

/** Runs every job due now (and those they make due now) until none is left; for tests and benchmarks. */
export async function drainJobs(system: SystemContext, registry: JobRegistry, { now, maxRounds = 100, batches = false }: { now?: Date; maxRounds?: number } & RunOptions = {}) {
  const { db } = system;
  let ran = 0;
  for (let round = 0; round < maxRounds; round++) {
    const at = now ?? new Date();
    let claimed = 0;
    for (const source of jobSources()) {
      const due = await source.claim(db, { limit: 50, now: at });
      claimed += due.length;
      const together = (job: ClaimedJob) => batches && definitionOf(registry, job.kind)?.batch !== undefined;
      // One at a time, as a single worker would; batch kinds together afterwards.
      for (const job of due.filter((job) => !together(job))) await runJob(system, job, registry, { now: at });
      const batched = due.filter(together);
      if (batched.length) {
        const results = startJobs(system, batched, registry, at, { batches });
        const outcomes = await Promise.all(batched.map((job, i) => settle(job, results[i], at)));
        const written = outcomes.filter((outcome): outcome is Recorded => outcome !== null);
        if (written.length) await source.record(db, written);
      }
    }
    if (!claimed) break;
    ran += claimed;
  }
  return ran;
}
