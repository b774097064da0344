import { systemContext } from "./context";
import { runWakeJob } from "@/lib/conversations/snooze";
import { runSlaCheck } from "@/lib/sla/sla";
import { sendReadSignal } from "@/lib/conversations/customer-signals";
import { sendSurvey } from "@/lib/messages/send-survey";
import { simulateSandboxStatus } from "@/lib/messages/apply-status";
import { sendAutomatedMessage } from "@/lib/messages/send-message";
import { sendQueuedMessage } from "@/lib/messages/send-queued-message";
import { fetchInboundMedia } from "@/lib/inbound/cloud-webhook";
import { createAutoReplyJobHandler } from "@/lib/auto-replies/job";
import { simulateTemplateReview } from "@/lib/templates/status";
import { runDeliveryBatch } from "@/lib/webhooks/deliver-batch";
import { runDeliveryJob } from "@/lib/webhooks/deliver-job";
import { runPushNotify, runPushSend } from "@/lib/push/notify";
import type { JobBatchHandlers, JobHandlers } from "@/lib/jobs/runner";
import { runCampaignDispatch } from "@/lib/campaigns/send";
import { createOptOutJobHandler } from "@/lib/campaigns/opt-out";

/** Every kind of background work and the verb that carries it out. */
export const jobHandlers: JobHandlers = {
  "message.send": (payload, { attempt }) => sendQueuedMessage(systemContext(), payload, { attempt }),
  "message.simulate-status": (payload) => simulateSandboxStatus(systemContext(), payload),
  "message.fetch-media": (payload, { attempt }) => fetchInboundMedia(systemContext(), payload, { attempt }),
  "message.auto-reply": (payload, job) => createAutoReplyJobHandler(systemContext(), sendAutomatedMessage)(payload, job),
  "webhook.deliver": (payload, job) => runDeliveryJob(systemContext(), payload, job),
  "conversation.wake": (payload, { now }) => runWakeJob(systemContext(), payload, { now }),
  "template.simulate-review": (payload) => simulateTemplateReview(systemContext(), payload),
  "csat.survey": (payload) => sendSurvey(systemContext(), payload),
  "network.read-signal": (payload, { attempt }) => sendReadSignal(systemContext(), payload, { attempt }),
  "push.notify": runPushNotify,
  "push.send": runPushSend,
  "campaign.dispatch": (payload, { now }) => runCampaignDispatch(systemContext(), payload, { now }),
  "contact.opt-out": createOptOutJobHandler(sendAutomatedMessage),
  "sla.check": (payload, { now }) => runSlaCheck(systemContext(), payload, { now }),
};

/** Kinds the local runner runs many at a time (same outcome as `jobHandlers`, fewer round trips). */
export const jobBatchHandlers: JobBatchHandlers = {
  "webhook.deliver": (items) => runDeliveryBatch(systemContext(), items),
};
