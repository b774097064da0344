import { setEventFanOut, setEventReaction } from "@/lib/events/record-event";
import { runAutomations } from "@/lib/automations/engine";
import { fanOutToWebhooks } from "@/lib/webhooks/fan-out";
import { registerJobSource } from "@/lib/jobs/runner";
import { deliveryQueue } from "@/lib/webhooks/delivery-queue";

// Connects lower layers to the domains above them, once per process, on import: every
// entry point that runs domain verbs imports this module (the /v1 and plant store wrappers,
// server actions, the job handlers, the server start, scripts and the test setup).
setEventFanOut(fanOutToWebhooks);
// Automation rules run in the transaction of the event they react to.
setEventReaction(runAutomations);
// Webhook deliveries are claimed from their own rows by the job runner.
registerJobSource(deliveryQueue);
