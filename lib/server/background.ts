import { getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { jobHandlers } from "@/lib/jobs/handlers";
import { type JobRunner, startJobRunner } from "@/lib/jobs/runner";
import { listen } from "./listen";

let runner: JobRunner | undefined;
let unlisten: (() => Promise<void>) | undefined;

/** Background work started with the server: the local job runner, woken on commit. */
export async function startBackgroundWork() {
  const env = getEnv();
  runner = startJobRunner({ db: getDb(), handlers: jobHandlers, pollMs: env.JOBS_POLL_MS });
  unlisten = await listen(JOBS_CHANNEL, () => runner?.wake());
}

export async function stopBackgroundWork() {
  await unlisten?.();
  await runner?.stop();
}
