import { getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { jobHandlers } from "@/lib/jobs/handlers";
import { inngestRelayHandlers } from "@/lib/jobs/inngest-relay";
import { type JobRunner, startJobRunner } from "@/lib/jobs/runner";
import { listen } from "./listen";

let runner: JobRunner | undefined;
let unlisten: (() => Promise<void>) | undefined;

/**
 * Background work started with the server, woken on commit: the local job runner, or with
 * JOBS_BACKEND=inngest the relay that hands due job rows to Inngest (which then runs them
 * through the functions served at /api/inngest).
 */
export async function startBackgroundWork() {
  const env = getEnv();
  const handlers = env.JOBS_BACKEND === "inngest" ? inngestRelayHandlers(jobHandlers) : jobHandlers;
  runner = startJobRunner({ db: getDb(), handlers, pollMs: env.JOBS_POLL_MS });
  unlisten = await listen(JOBS_CHANNEL, () => runner?.wake());
}

export async function stopBackgroundWork() {
  await unlisten?.();
  await runner?.stop();
}
