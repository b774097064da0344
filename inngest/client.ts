import { Inngest } from "inngest";
import { type Env, getEnv, isBuildPhase } from "@/lib/platform/env";

/**
 * The client's options for an environment. Dev mode (no event key, unsigned calls accepted
 * at /api/inngest) only when INNGEST_DEV says so; otherwise the signing key is required
 * (lib/platform/env.ts stops without it when JOBS_BACKEND=inngest) and every call must be signed.
 */
export function inngestClientOptions(env: Env) {
  return {
    isDev: env.INNGEST_DEV,
    ...(env.INNGEST_EVENT_KEY ? { eventKey: env.INNGEST_EVENT_KEY } : {}),
    ...(env.INNGEST_SIGNING_KEY ? { signingKey: env.INNGEST_SIGNING_KEY } : {}),
    ...(env.INNGEST_BASE_URL ? { baseUrl: env.INNGEST_BASE_URL } : {}),
  };
}

function options() {
  // `next build` imports the serve route; it needs no keys and must not touch ./.data.
  if (isBuildPhase()) return {};
  return inngestClientOptions(getEnv());
}

/** The app's Inngest client: background work when JOBS_BACKEND=inngest (functions served at /api/inngest). */
export const inngest = new Inngest({ id: "chorus", ...options() });
