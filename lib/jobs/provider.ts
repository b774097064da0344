import type { SystemContext } from "@/lib/auth/context";
import type { JobRegistry } from "./define";
import { DEFAULT_LANES, type JobRunner, type Lane, startJobRunner } from "./local-runner";
import { releaseAllStaleClaims } from "./sources";

/**
 * Where background work runs, chosen once at start (JOBS_BACKEND): the local runner in this
 * process, or Inngest (lib/server/inngest-relay.ts), to which the local runner relays each due
 * job row. Either way the work is a row written in the transaction that caused it
 * (enqueueJob), and a commit wakes the provider.
 */
export type JobProvider = {
  name: "local" | "inngest";
  /** Starts taking due work (a restart first resumes what the previous process left unfinished). */
  start: () => Promise<void>;
  /** A JOBS_CHANNEL payload: the kinds (or a domain source) committed; none wakes every lane. */
  wake: (payload?: string) => void;
  /** Stops taking work and waits for the jobs in flight. */
  stop: () => Promise<void>;
};

export type LocalProviderOptions = {
  /** The process's verb context (the pool and the automation rules), taken when the runner starts. */
  system: () => SystemContext;
  jobs: JobRegistry;
  pollMs: number;
  lanes?: Lane[];
  /** Kinds with a batch handler run many claimed jobs together. */
  batches?: boolean;
  /**
   * The embedded database has one owner: whatever is still claimed at start was claimed by a
   * process that died, and runs again now (on PostgreSQL such claims run out within 30 s).
   */
  releaseStaleClaims?: boolean;
  /**
   * The runner's first pass, this long after start. A restart after a crash can find a backlog
   * of due jobs; worked through at once, its transactions queue in front of the first requests
   * (the health check waited 10 s behind 1,000 of them). The backlog waits a moment instead:
   * jobs enqueued meanwhile are picked up by that first pass. A message someone sends meanwhile
   * starts the runner at once: the server is answering requests, and a customer's reply does not
   * wait for the backlog's moment.
   */
  startAfterMs?: number;
  /**
   * Starts the first pass sooner, once this settles (the server's first answer): the backlog
   * waits until the server has shown it serves, and no longer than `startAfterMs`.
   */
  startSooner?: Promise<unknown>;
  name?: JobProvider["name"];
};

/** The local provider: the durable runner (./local-runner.ts) in this process. */
export function localJobProvider({ system, jobs, pollMs, lanes = DEFAULT_LANES, batches = true, releaseStaleClaims = false, startAfterMs = 0, startSooner, name = "local" }: LocalProviderOptions): JobProvider {
  let runner: JobRunner | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  const startRunner = () => {
    clearTimeout(timer);
    if (stopping || runner) return;
    runner = startJobRunner({ system: system(), jobs, batches, lanes, pollMs });
  };
  return {
    name,
    async start() {
      if (releaseStaleClaims) {
        const released = await releaseAllStaleClaims(system().db);
        if (released) console.log(`Resuming ${released} job(s) and deliveries left unfinished by the previous run.`);
      }
      timer = setTimeout(startRunner, startAfterMs);
      void startSooner?.then(startRunner, startRunner);
    },
    wake(payload) {
      if (runner) runner.wake(payload);
      else if (payload?.split(",").includes("message.send")) startRunner();
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await runner?.stop();
    },
  };
}
