import { getDbHandle } from "@/db";
import { getEnv } from "@/lib/platform/env";
import { JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { jobRegistry } from "@/lib/server/job-registry";
import { systemContext } from "@/lib/server/context";
import { type JobProvider, type LocalProviderOptions, localJobProvider } from "@/lib/jobs/provider";
import { loggable } from "@/lib/platform/errors";
import { AUTH_CHANNEL, forgetCachedTokens } from "@/lib/auth/token-cache";
import { listen } from "@/db/listen";
import { startEmbeddedMaintenance } from "@/db/embedded-maintenance";

let provider: JobProvider | undefined;
let unlisten: (() => Promise<void>) | undefined;
let unlistenAuth: (() => Promise<void>) | undefined;
let stopMaintenance: (() => Promise<void>) | undefined;

/**
 * The job runner's first pass: once the server has answered its first request, and at the
 * latest this long after it starts (a backlog left by a crash waits behind the first requests;
 * see LocalProviderOptions.startAfterMs).
 */
const RUNNER_AFTER_START_MS = 10_000;

// On globalThis: set by the HTTP server (scripts/server.mjs), a separate module graph of the
// same process, when it has sent its first answer; absent under `next dev` and in tests.
const serverAnswered = () => (globalThis as unknown as { __chorusFirstAnswer?: Promise<void> }).__chorusFirstAnswer;
/** The embedded database's first vacuum round, this long after the server starts. */
const MAINTENANCE_AFTER_START_MS = 30_000;

/**
 * Background work started with the server, woken on commit: the job provider chosen by
 * JOBS_BACKEND (the local runner, or the relay that hands due job rows to Inngest, which then
 * runs them through the functions served at /api/inngest).
 */
export async function startBackgroundWork({ firstPassAfterMs = RUNNER_AFTER_START_MS }: { firstPassAfterMs?: number } = {}) {
  const env = getEnv();
  const { pglite } = getDbHandle();
  const options: LocalProviderOptions = {
    system: systemContext,
    jobs: jobRegistry,
    pollMs: env.JOBS_POLL_MS,
    releaseStaleClaims: Boolean(pglite),
    startAfterMs: firstPassAfterMs,
    startSooner: serverAnswered(),
  };
  // The Inngest SDK (about 15 MiB once loaded) only for a server that hands its jobs to Inngest.
  provider = env.JOBS_BACKEND === "inngest" ? (await import("@/lib/server/inngest-relay")).inngestJobProvider(options) : localJobProvider(options);
  // What autovacuum does on a PostgreSQL server: the embedded database has none.
  if (pglite && env.PGLITE_AUTOVACUUM) {
    // Not at start: a restart answers its first requests before it vacuums anything.
    stopMaintenance = startEmbeddedMaintenance(pglite, {
      firstAfterMs: MAINTENANCE_AFTER_START_MS,
      onError: (error, table) => console.error(`vacuuming the embedded database${table ? ` (table ${table})` : ""} failed: ${loggable(error)}`),
      onSlow: (table, ms) => console.log(`Vacuumed table ${table} of the embedded database in ${ms} ms (requests waited meanwhile).`),
    });
  }
  await provider.start();
  unlisten = await listen(JOBS_CHANNEL, (payload) => provider?.wake(payload));
  // Access taken away in another process (or this one, once committed): cached tokens are forgotten.
  unlistenAuth = await listen(AUTH_CHANNEL, () => forgetCachedTokens());
}

export async function stopBackgroundWork() {
  await stopMaintenance?.();
  await unlisten?.();
  await unlistenAuth?.();
  await provider?.stop();
}
