import type { JobHandler, JobKind, JobPayloads, JobRegistry } from "@/lib/jobs/define";
import { jobRegistry } from "@/lib/server/job-registry";

/**
 * A registry whose given kinds run these handlers instead (each with its kind's real schema, so
 * payloads are parsed as in production), on top of `base` (none by default: only these kinds).
 */
export function jobsWith(handlers: { [K in JobKind]?: JobHandler<JobPayloads[K]> }, base: JobRegistry = {}): JobRegistry {
  const swapped = Object.entries(handlers).map(([kind, handler]) => [kind, { ...jobRegistry[kind as JobKind], handler }]);
  return { ...base, ...Object.fromEntries(swapped) } as JobRegistry;
}
