import type { JobDefinition, JobKind, JobPayloads } from "@/lib/jobs/define";
import { wakeConversationJob } from "@/lib/conversations/snooze";
import { slaCheckJob } from "@/lib/sla/sla";
import { readSignalJob } from "@/lib/conversations/customer-signals";
import { surveyJobDefinition } from "@/lib/messages/send-survey";
import { simulateStatusJob } from "@/lib/messages/apply-status";
import { sendAutomatedMessage } from "@/lib/messages/send-message";
import { sendMessageJob } from "@/lib/messages/send-queued-message";
import { fetchMediaJob } from "@/lib/inbound/cloud-webhook";
import { createAutoReplyJob } from "@/lib/auto-replies/job";
import { simulateTemplateReviewJob } from "@/lib/templates/status";
import { deliverWebhookJob } from "@/lib/webhooks/deliver-job";
import { pushNotifyJob, pushSendJob } from "@/lib/push/notify";
import { campaignDispatchJob } from "@/lib/campaigns/send";
import { createOptOutJob } from "@/lib/campaigns/opt-out";

/** Every kind of background work, each defined in its domain (payload schema and handler). */
const definitions = [
  sendMessageJob,
  simulateStatusJob,
  fetchMediaJob,
  createAutoReplyJob(sendAutomatedMessage),
  deliverWebhookJob,
  wakeConversationJob,
  simulateTemplateReviewJob,
  surveyJobDefinition,
  readSignalJob,
  pushNotifyJob,
  pushSendJob,
  campaignDispatchJob,
  createOptOutJob(sendAutomatedMessage),
  slaCheckJob,
] as const;

/** Each kind with its definition; every kind a domain declared (JobPayloads) is here once. */
export type FullJobRegistry = { readonly [K in JobKind]: JobDefinition<K, JobPayloads[K]> };

/** The job definitions by kind: what the local runner and the Inngest functions run. */
export const jobRegistry: FullJobRegistry = Object.fromEntries(definitions.map((definition) => [definition.kind, definition])) as unknown as FullJobRegistry;

/** The kinds listed above (a type test checks they are exactly the declared kinds). */
export type RegisteredKind = (typeof definitions)[number]["kind"];
