// Opening the embedded database while Next.js loads. PGlite takes seconds to open a data
// directory (compiling PostgreSQL's WebAssembly, replaying its log after a crash) and Next.js
// seconds to load; the server script (scripts/server.mjs) starts the database's worker thread
// before it imports Next.js, so the two overlap, and the app's database handle (db/index.ts)
// adopts that worker instead of starting its own. Only for a data directory that exists (a new
// one is created by the app, in a process of its own) and only once its lock is held: a
// directory another process owns is left to the app, which says so and stops.
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { lockDataDir } from "./data-dir-lock.mjs";

/** Slots of the worker's shared load figures (see WorkerPglite). */
export const LOAD_SLOTS = 7;

// On globalThis: the worker is started by the server script and adopted by the app's bundle,
// which are separate module graphs of the same process.
const holder = /** @type {{ __chorusEarlyDb?: Record<string, any> }} */ (globalThis);

/**
 * Starts the worker of the embedded data directory `dir` (absolute) if it holds a database and
 * no other process owns it. Returns whether it did; never throws (the app then opens it itself
 * and reports whatever is wrong).
 */
export function openEmbeddedEarly(dir) {
  if (holder.__chorusEarlyDb || !existsSync(path.join(dir, "PG_VERSION"))) return false;
  let release;
  try {
    release = lockDataDir(dir);
  } catch {
    return false;
  }
  const load = new Float64Array(new SharedArrayBuffer(LOAD_SLOTS * Float64Array.BYTES_PER_ELEMENT));
  const worker = new Worker(path.join(import.meta.dirname, "pglite-worker.mjs"), { workerData: { dataDir: dir, load: load.buffer } });
  const early = { dir, worker, load, release, failure: undefined };
  // Until the app adopts it, a failure is kept for the app to report.
  const keep = (error) => (early.failure ??= error);
  const exited = (code) => keep(new Error(`the embedded database stopped (worker exit ${code})`));
  worker.on("error", keep);
  worker.on("exit", exited);
  early.detach = () => {
    worker.off("error", keep);
    worker.off("exit", exited);
  };
  holder.__chorusEarlyDb = early;
  return true;
}

/**
 * The worker started early for `dir`, handed over once (its lock with it), or undefined. One
 * started for another directory is stopped and its lock released.
 */
export function takeEmbeddedEarly(dir) {
  const early = holder.__chorusEarlyDb;
  if (!early) return undefined;
  holder.__chorusEarlyDb = undefined;
  early.detach();
  if (early.dir !== dir) {
    void early.worker.terminate().finally(() => early.release());
    return undefined;
  }
  return early;
}
