import { runDeliveryJob } from "@/lib/webhooks/deliver-job";
import type { JobHandlers } from "./runner";

/** Every kind of background work and the verb that carries it out. */
export const jobHandlers: JobHandlers = {
  "webhook.deliver": runDeliveryJob,
};
