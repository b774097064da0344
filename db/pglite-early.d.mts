import type { Worker } from "node:worker_threads";

/** Slots of the worker's shared load figures (see WorkerPglite). */
export const LOAD_SLOTS: number;

/** A worker of the embedded database started before Next.js loaded, with the data directory's lock. */
export type EarlyDatabase = {
  dir: string;
  worker: Worker;
  load: Float64Array<SharedArrayBuffer>;
  release: () => void;
  /** Why it stopped before it was adopted, if it did. */
  failure: Error | undefined;
};

/** Starts the worker of the embedded data directory `dir` (absolute) if it holds a database and no other process owns it. */
export function openEmbeddedEarly(dir: string): boolean;
/** The worker started early for `dir`, handed over once (its lock with it), or undefined. */
export function takeEmbeddedEarly(dir: string): EarlyDatabase | undefined;
