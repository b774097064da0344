import { deliverWebhook } from "./functions/deliver-webhook";
import { runJob } from "./functions/run-job";

/** Every function served at /api/inngest. */
export const functions = [deliverWebhook, runJob];

export { inngest } from "./client";
