import { setEventFanOut, setEventFanOutMany, setEventReaction } from "@/lib/events/record-event";
import { runAutomations } from "@/lib/automations/engine";
import { fanOutManyToWebhooks, fanOutToWebhooks } from "@/lib/webhooks/fan-out";
import { fanOutToPush } from "@/lib/push/notify";
import { registerJobSource } from "@/lib/jobs/runner";
import { deliveryQueue } from "@/lib/webhooks/delivery-queue";

// Connects lower layers to the domains above them, once per process, on import: every
// entry point that runs domain verbs imports this module (the /v1 and plant store wrappers,
// server actions, the job handlers, the server start, scripts and the test setup).
// Each recorded event goes to the account's webhooks and, for the events people are pushed
// about, to a push job (one after the other: both write in the event's transaction).
setEventFanOut(async (tx, event) => {
  await fanOutToWebhooks(tx, event);
  await fanOutToPush(tx, event);
});
setEventFanOutMany(async (tx, events) => {
  await fanOutManyToWebhooks(tx, events);
  for (const event of events) await fanOutToPush(tx, event);
});
// Automation rules run in the transaction of the event they react to.
setEventReaction(runAutomations);
// Webhook deliveries are claimed from their own rows by the job runner.
registerJobSource(deliveryQueue);
