import { Inngest } from "inngest";
import { getEnv, isBuildPhase } from "@/lib/env";

function options() {
  // `next build` imports the serve route; it needs no keys and must not touch ./.data.
  if (isBuildPhase()) return {};
  const env = getEnv();
  return {
    ...(env.INNGEST_EVENT_KEY ? { eventKey: env.INNGEST_EVENT_KEY } : {}),
    ...(env.INNGEST_SIGNING_KEY ? { signingKey: env.INNGEST_SIGNING_KEY } : {}),
    ...(env.INNGEST_BASE_URL ? { baseUrl: env.INNGEST_BASE_URL } : {}),
    // A base URL without a signing key can only be the local dev server (`inngest dev`);
    // self-hosted `inngest start` and Inngest Cloud both sign their requests.
    ...(env.INNGEST_BASE_URL && !env.INNGEST_SIGNING_KEY ? { isDev: true } : {}),
  };
}

/** The app's Inngest client: background work when JOBS_BACKEND=inngest (functions served at /api/inngest). */
export const inngest = new Inngest({ id: "chorus", ...options() });
