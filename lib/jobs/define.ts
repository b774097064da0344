import type { z } from "zod";
import type { SystemContext } from "@/lib/auth/context";

/**
 * Every kind of background work and the payload it carries, one entry per job definition.
 * Each domain adds its own kinds next to its `defineJob` call:
 *
 *   declare module "@/lib/jobs/define" {
 *     interface JobPayloads { "conversation.wake": PayloadOf<typeof wakeConversationJob> }
 *   }
 *
 * so `enqueueJob` is typed by kind (a wrong payload does not compile) without this layer
 * importing the domains. The registry (lib/server/job-registry.ts) lists the definitions
 * themselves; a type test checks that the two name the same kinds.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobPayloads {}
export type JobKind = keyof JobPayloads & string;

/** A job row's id (a number), or the id of a domain row that is its own job (a webhook delivery). */
export type JobId = number | string;

/**
 * `attempt` counts claims of this row (1 on the first run); `now` is the clock the row was
 * claimed with, so a handler's "is it due yet" checks agree with the claim (tests and
 * benchmarks drive the runner with a simulated `now`). `takeover` is set when the previous
 * claim of the row ran out while it was running: the process that held it died, so work
 * it left half done is known to be abandoned.
 */
export type JobContext = {
  jobId: JobId;
  /** The source the job was claimed from ("jobs": the jobs table). */
  source?: string;
  attempt: number;
  now: Date;
  createdAt?: Date;
  takeover?: boolean;
  /** The runner holds a lease on the row (`attempt` is its claim count): a batch handler may write the outcome itself. */
  claimed?: boolean;
  /** The process's verb context (the pool and the automation rules) for the verbs the handler runs. */
  system: SystemContext;
};

/**
 * What a handler reports: nothing when done, `retryAt` to run again later (the handler's
 * own schedule), `failed` to stop for good. A thrown error retries with backoff.
 */
export type JobOutcome = void | { retryAt: Date; error?: string } | { failed: string };

/**
 * What a batch handler answers for a claimed job whose outcome it has written itself, in the
 * statement that recorded the work (claim count and status checked as the source's record does).
 */
export const OUTCOME_RECORDED = Symbol("outcome recorded");
export type BatchOutcome = JobOutcome | typeof OUTCOME_RECORDED;

/** A handler may also answer OUTCOME_RECORDED for a claimed job whose outcome it wrote itself. */
export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<BatchOutcome>;
/**
 * Runs many claimed jobs of one kind together (shared reads and writes); returns one promise
 * per job, in order, each settling as soon as that job is finished.
 */
export type JobBatchHandler<P> = (items: { payload: P; ctx: JobContext }[]) => Promise<BatchOutcome>[];

/**
 * One kind of background work: its payload's schema (the runner parses each payload once with
 * it: a payload that does not parse fails the job for good, with the reason) and its handler,
 * which receives the parsed payload. `batch`, when given, runs many claimed jobs of the kind
 * together on the local runner instead of one `handler` call each.
 */
export type JobDefinition<K extends string = string, P = unknown> = {
  kind: K;
  schema: z.ZodType<P>;
  handler: JobHandler<P>;
  batch?: JobBatchHandler<P>;
};

/** The payload type of a job definition. */
export type PayloadOf<D> = D extends JobDefinition<string, infer P> ? P : never;

/** Defines one kind of background work in its domain (see JobPayloads for its payload type). */
export function defineJob<K extends string, S extends z.ZodType>(definition: {
  kind: K;
  schema: S;
  handler: JobHandler<z.output<S>>;
  batch?: JobBatchHandler<z.output<S>>;
}): JobDefinition<K, z.output<S>> {
  return definition as JobDefinition<K, z.output<S>>;
}

/** What the runner runs: each kind's definition (a test may swap one for another of the same kind). */
export type JobRegistry = { readonly [K in JobKind]?: JobDefinition<K, JobPayloads[K]> };

/** A definition of any kind, as the runner handles it once it has looked the kind up. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition = JobDefinition<string, any>;

/** The definition of a claimed job's kind, or undefined for a kind nobody defined. */
export function definitionOf(registry: JobRegistry, kind: string): AnyJobDefinition | undefined {
  return Object.hasOwn(registry, kind) ? (registry as Record<string, AnyJobDefinition>)[kind] : undefined;
}

/**
 * Parses a stored payload with its kind's schema: the payload the handler receives, or the
 * reason the job fails for good (a payload that will never parse is not worth a retry).
 */
export function parsePayload(definition: AnyJobDefinition, raw: unknown): { ok: true; payload: unknown } | { ok: false; failed: string } {
  const parsed = definition.schema.safeParse(raw);
  if (parsed.success) return { ok: true, payload: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return { ok: false, failed: `invalid ${definition.kind} payload: ${where}${issue?.message ?? "does not match its schema"}` };
}
