import { setEventReaction } from "@/lib/events/record-event";
import { runAutomations } from "@/lib/automations/engine";

// Automation rules run in the transaction of the event they react to. They act through the
// domains' verbs, which record events themselves, so the events module cannot import them:
// every entry point that runs domain verbs imports this module (the /v1 and plant store
// wrappers, server actions, the job handlers, the server start, scripts and the test setup).
// Webhook deliveries and push jobs need no connecting: recording an event writes them
// (lib/events/fan-out.ts), and the job runner claims them by import.
setEventReaction(runAutomations);
