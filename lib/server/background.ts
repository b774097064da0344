import { getDb, getDbHandle } from "@/db";
import { getEnv } from "@/lib/platform/env";
import { JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { jobBatchHandlers, jobHandlers } from "@/lib/server/job-handlers";
import { DEFAULT_LANES, INNGEST_LANES, type JobRunner, releaseAllStaleClaims, startJobRunner } from "@/lib/jobs/runner";
import { loggable } from "@/lib/platform/errors";
import { AUTH_CHANNEL, forgetCachedTokens } from "@/lib/auth/token-cache";
import { listen } from "@/db/listen";
import { handOverLocalDeliveries } from "@/lib/jobs/delivery-queue";
import { startEmbeddedMaintenance } from "@/db/embedded-maintenance";

let runner: JobRunner | undefined;
let unlisten: (() => Promise<void>) | undefined;
let unlistenAuth: (() => Promise<void>) | undefined;
let handOverTimer: NodeJS.Timeout | undefined;
let runnerTimer: NodeJS.Timeout | undefined;
let stopping = false;
let stopMaintenance: (() => Promise<void>) | undefined;

/**
 * Deliveries begun by a local runner (no job row) get their relay job row. At start, and every
 * minute while servers of both kinds may share the database (a rolling switch to Inngest).
 */
const HAND_OVER_EVERY_MS = 60_000;
/**
 * The job runner's first pass, this long after the server starts. A restart after a crash can
 * find a backlog of due jobs; worked through at once, its transactions queue in front of the
 * first requests (the health check waited 10 s behind 1,000 of them). The backlog waits a
 * moment instead: jobs enqueued meanwhile are picked up by that first pass.
 */
const RUNNER_AFTER_START_MS = 2_000;
/** The embedded database's first vacuum round, this long after the server starts. */
const MAINTENANCE_AFTER_START_MS = 30_000;
async function handOver() {
  const handed = await handOverLocalDeliveries(getDb());
  if (handed) {
    console.log(`Handing ${handed} pending webhook deliveries to Inngest.`);
    runner?.wake();
  }
}

/**
 * Background work started with the server, woken on commit: the local job runner, or with
 * JOBS_BACKEND=inngest the relay that hands due job rows to Inngest (which then runs them
 * through the functions served at /api/inngest).
 */
export async function startBackgroundWork() {
  const env = getEnv();
  const inngest = env.JOBS_BACKEND === "inngest";
  // The Inngest SDK (about 15 MiB once loaded) only for a server that hands its jobs to Inngest.
  const handlers = inngest ? (await import("@/lib/server/inngest-relay")).inngestRelayHandlers(jobHandlers) : jobHandlers;
  // The embedded database has one owner: whatever is still claimed was claimed by a process
  // that died, and runs again now (on PostgreSQL such claims run out within 30 s).
  const { pglite } = getDbHandle();
  if (pglite) {
    const released = await releaseAllStaleClaims(getDb());
    if (released) console.log(`Resuming ${released} job(s) and deliveries left unfinished by the previous run.`);
    // What autovacuum does on a PostgreSQL server: the embedded database has none.
    if (env.PGLITE_AUTOVACUUM) {
      // Not at start: a restart answers its first requests before it vacuums anything.
      stopMaintenance = startEmbeddedMaintenance(pglite, {
        firstAfterMs: MAINTENANCE_AFTER_START_MS,
        onError: (error, table) => console.error(`vacuuming the embedded database${table ? ` (table ${table})` : ""} failed: ${loggable(error)}`),
        onSlow: (table, ms) => console.log(`Vacuumed table ${table} of the embedded database in ${ms} ms (requests waited meanwhile).`),
      });
    }
  }
  if (inngest) {
    await handOver();
    handOverTimer = setInterval(() => handOver().catch((error) => console.error(`handing deliveries to Inngest failed: ${loggable(error)}`)), HAND_OVER_EVERY_MS);
    handOverTimer.unref?.();
  }
  const startRunner = () => {
    clearTimeout(runnerTimer);
    if (stopping || runner) return;
    runner = startJobRunner({
      db: getDb(),
      handlers,
      batchHandlers: inngest ? {} : jobBatchHandlers,
      lanes: inngest ? INNGEST_LANES : DEFAULT_LANES,
      pollMs: env.JOBS_POLL_MS,
    });
  };
  runnerTimer = setTimeout(startRunner, RUNNER_AFTER_START_MS);
  // A message someone sends meanwhile starts the runner at once: the server is answering
  // requests, and a customer's reply does not wait for the backlog's moment.
  unlisten = await listen(JOBS_CHANNEL, (payload) => (runner ? runner.wake(payload) : payload?.split(",").includes("message.send") && startRunner()));
  // Access taken away in another process (or this one, once committed): cached tokens are forgotten.
  unlistenAuth = await listen(AUTH_CHANNEL, () => forgetCachedTokens());
}

export async function stopBackgroundWork() {
  stopping = true;
  clearTimeout(runnerTimer);
  clearInterval(handOverTimer);
  await stopMaintenance?.();
  await unlisten?.();
  await unlistenAuth?.();
  await runner?.stop();
}
