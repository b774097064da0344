import "server-only";
import { z } from "zod";
import webpush from "web-push";
import type { Executor } from "@/db";
import { type PushNotifyPayload, pushNotifyPayload } from "@/lib/events/fan-out";
import { enqueueJobs, type NewJob } from "@/lib/jobs/enqueue";
import { defineJob, type JobContext, type PayloadOf } from "@/lib/jobs/define";
import { getEnv } from "@/lib/platform/env";
import { slaAlertRecipients } from "@/lib/sla/recipients";
import { pinnedFetch } from "@/lib/platform/http/pinned-post";
import { checkWebhookUrl } from "@/lib/platform/url-policy";
import { inQuietHours, presentPreferences } from "./preferences";
import type { PushPayload, PushReason } from "./schemas";
import { deleteSubscriptions, findConversationForPush, findMessageText, findSubscription, latestAssigner, markPushed, selectPushDevices } from "./store";
import { getVapidKeys } from "./vapid";

const preferenceOf: Record<PushReason, keyof ReturnType<typeof presentPreferences>> = {
  new_message: "new_messages",
  mention: "mentions",
  assignment: "assignments",
  // One choice covers both SLA alerts: "response-time warnings".
  sla_warning: "sla_warnings",
  sla_breached: "sla_warnings",
};

const clip = (value: string, length: number) => (Array.from(value).length > length ? `${Array.from(value).slice(0, length - 1).join("")}…` : value);

/** The words a push shows: who and what, short enough for a lock screen. */
async function composePayload(db: Executor, job: PushNotifyPayload): Promise<PushPayload | null> {
  const row = await findConversationForPush(db, { accountId: job.accountId, conversationId: job.conversationId });
  if (!row) return null;
  const who = row.name ?? row.username ?? (row.phone ? `+${row.phone}` : "A customer");
  let body = row.preview ?? "";
  if (job.reason === "new_message" && job.messageId) {
    const message = await findMessageText(db, { accountId: job.accountId, messageId: job.messageId });
    body = message?.text ?? (message ? `[${message.type}]` : body);
  }
  const title =
    job.reason === "new_message" ? who
    : job.reason === "mention" ? `You were mentioned · ${who}`
    : job.reason === "assignment" ? `Assigned to you · ${who}`
    : job.reason === "sla_warning" ? `Reply soon · ${who}`
    : `Reply time missed · ${who}`;
  return { title: clip(title, 80), body: clip(body, 160), url: `/inbox/${row.id}`, tag: `${job.reason}:${row.id}`, type: job.reason };
}

/**
 * The `push.notify` job: who is pushed (the event's people, their choices and quiet hours),
 * then one `push.send` job per device so each is retried on its own.
 */
async function runPushNotify(job: PushNotifyPayload, { now, system: { db } }: Pick<JobContext, "now" | "system">) {
  let userIds = job.userIds;
  if (job.reason === "assignment" && userIds) {
    // Taking a conversation yourself is not news to you.
    const assigner = await latestAssigner(db, { accountId: job.accountId, conversationId: job.conversationId });
    if (assigner) userIds = userIds.filter((id) => id !== assigner);
  }
  if (job.actorId) userIds = (userIds ?? []).filter((id) => id !== job.actorId);
  if ((job.reason === "sla_warning" || job.reason === "sla_breached") && !userIds) {
    userIds = await slaAlertRecipients(db, { accountId: job.accountId, assigneeId: null, teamId: job.teamId ?? null });
  }
  if (userIds && userIds.length === 0) return;

  const devices = await selectPushDevices(db, { accountId: job.accountId, userIds });
  const wanted = devices.filter(({ preferences }) => {
    const choices = presentPreferences(preferences ?? undefined);
    return choices[preferenceOf[job.reason]] === true && !inQuietHours(choices, now);
  });
  if (wanted.length === 0) return;
  const payload = await composePayload(db, job);
  if (!payload) return;
  const sends: NewJob[] = wanted.map((device) => ({
    kind: "push.send",
    accountId: job.accountId,
    payload: { accountId: job.accountId, subscriptionId: device.id, body: JSON.stringify(payload), urgency: job.reason === "new_message" || job.reason === "sla_warning" || job.reason === "sla_breached" ? "high" : "normal" },
  }));
  await enqueueJobs(db, sends);
}

export const pushNotifyJob = defineJob({ kind: "push.notify", schema: pushNotifyPayload, handler: runPushNotify });

const sendPayload = z.object({ accountId: z.string(), subscriptionId: z.string(), body: z.string(), urgency: z.enum(["normal", "high"]) });

/** How long a push service keeps a push for a device that is offline (seconds). */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
const PUSH_TIMEOUT_MS = 15_000;

/**
 * The `push.send` job: one encrypted push (RFC 8291, VAPID RFC 8292) to one device, through the
 * webhook URL policy and a connection pinned to the address it approved. 404/410: the browser
 * dropped the subscription, so it is deleted. 429 and 5xx are retried; other refusals stop.
 */
async function runPushSend({ accountId, subscriptionId, body, urgency }: z.output<typeof sendPayload>, { attempt, system: { db } }: Pick<JobContext, "attempt" | "system">) {
  const subscription = await findSubscription(db, { accountId, id: subscriptionId });
  if (!subscription) return;
  const check = await checkWebhookUrl({ url: subscription.endpoint, allowInsecure: getEnv().WEBHOOK_ALLOW_INSECURE_TARGETS, subject: "The push endpoint" });
  if (!check.ok) {
    if (check.unresolved && attempt < 5) return { retryAt: new Date(Date.now() + 60_000 * attempt), error: check.reason };
    return { failed: check.reason };
  }
  const vapid = getVapidKeys();
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    body,
    { vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey }, TTL: PUSH_TTL_SECONDS, urgency, contentEncoding: "aes128gcm" },
  );
  const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
  let response: Response;
  try {
    response = await pinnedFetch(check.url, { address: check.address, family: check.family }, {
      method: "POST",
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
  } catch (error) {
    // Thrown: retried with the runner's backoff.
    throw new Error(`push service unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status === 404 || response.status === 410) {
    await deleteSubscriptions(db, { accountId, ids: [subscriptionId] });
    return;
  }
  if (response.ok) {
    await markPushed(db, { accountId, id: subscriptionId });
    return;
  }
  if (response.status === 429 || response.status >= 500) {
    const retryAfter = Number(response.headers.get("retry-after"));
    if (Number.isFinite(retryAfter) && retryAfter > 0) return { retryAt: new Date(Date.now() + Math.min(retryAfter, 3600) * 1000), error: `push service answered ${response.status}` };
    throw new Error(`push service answered ${response.status}`);
  }
  return { failed: `push service answered ${response.status}` };
}

export const pushSendJob = defineJob({ kind: "push.send", schema: sendPayload, handler: runPushSend });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "push.notify": PayloadOf<typeof pushNotifyJob>;
    "push.send": PayloadOf<typeof pushSendJob>;
  }
}
