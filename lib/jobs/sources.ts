import type { Db } from "@/db";
import { deliveryQueue } from "./delivery-queue";
import { jobsTable } from "./jobs-table";
import { JOBS_SOURCE, type JobSource } from "./source";

/**
 * Where the runner claims work: the jobs table, and the webhook deliveries, whose rows are
 * their own jobs (no second row per delivery).
 */
const allSources = (): JobSource[] => [jobsTable, deliveryQueue];

/** The jobs table and the deliveries, each while it is enabled. */
export function jobSources(): JobSource[] {
  return allSources().filter((source) => source.enabled?.() ?? true);
}

export function sourceNamed(name: string | undefined): JobSource {
  if (!name || name === JOBS_SOURCE) return jobsTable;
  const source = allSources().find((s) => s.name === name);
  if (!source) throw new Error(`no job source named ${name}`);
  return source;
}

/**
 * The embedded database has one owner: a claim still held when the process starts was taken
 * by a process that died, and its work is due again at once (in every source).
 */
export async function releaseAllStaleClaims(db: Db) {
  let released = 0;
  for (const source of allSources()) released += await source.releaseStale(db);
  return released;
}

/** Items grouped by the source they belong to. */
export function bySource<I extends { source: JobSource }, T>(items: I[], pick: (item: I) => T): Map<JobSource, T[]> {
  const groups = new Map<JobSource, T[]>();
  for (const item of items) {
    const group = groups.get(item.source);
    if (group) group.push(pick(item));
    else groups.set(item.source, [pick(item)]);
  }
  return groups;
}
