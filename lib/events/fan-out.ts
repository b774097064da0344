import { z } from "zod";
import type { Executor } from "@/db";
import { enqueueJobs } from "@/lib/jobs/enqueue";
import { getEnv } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { insertEventDeliveries, insertEventsDeliveries, insertPushJobIfSubscribed } from "./store";
import type { EventEnvelope } from "./types";

/**
 * What recording an event enqueues in its own transaction, so that it commits (or not) with
 * the event: one delivery row per active webhook subscribed to its type, and a `push.notify`
 * job when someone in the account has a device subscribed. The work itself runs later, from
 * those rows: the job runner sends the deliveries (lib/webhooks/deliver-job.ts) and the
 * pushes (lib/push/notify.ts). Nothing here calls up into a domain: the rows are the contract.
 */

/** An account may register at most this many webhooks (so a fan-out makes at most this many rows per event). */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

/** A recorded event as its fan-out sees it. */
export type RecordedEvent = { accountId: string; envelope: EventEnvelope; createdAt: Date; deliveryBody?: unknown; excludeWebhookId?: string };

/**
 * Fans a recorded event out to the account's webhooks, in the transaction that recorded it:
 * one delivery row per active webhook subscribed to the type (the row is the local runner's
 * job; with JOBS_BACKEND=inngest a job row hands it to Inngest). `deliveryBody`
 * replaces the envelope as the body (the New Plant webhook); `excludeWebhookId` leaves one
 * webhook out (webhook.failed goes to the others only).
 *
 * One statement finds the endpoints, writes their delivery rows and wakes the runner's
 * delivery lane once the transaction commits. The delivery ids are made here (time-sortable,
 * one per possible endpoint: an account has at most MAX_WEBHOOKS_PER_ACCOUNT).
 */
export async function fanOutToWebhooks(tx: Executor, { accountId, envelope, createdAt, deliveryBody, excludeWebhookId }: RecordedEvent): Promise<void> {
  // The body is frozen now: every attempt, automatic or manual, sends these exact bytes.
  const payload = JSON.stringify(deliveryBody ?? envelope);
  const ids = Array.from({ length: MAX_WEBHOOKS_PER_ACCOUNT }, () => newId("delivery", createdAt));
  const at = createdAt.toISOString();
  const inserted = await insertEventDeliveries(tx, { accountId, eventId: envelope.id, eventType: envelope.type, payload, ids, at, excludeWebhookId });
  // With JOBS_BACKEND=inngest the relay hands each delivery to Inngest through a job row (outbox).
  if (getEnv().JOBS_BACKEND === "inngest") {
    await enqueueJobs(
      tx,
      inserted.map((row) => ({
        kind: "webhook.deliver" as const,
        // The endpoint groups its jobs for the runner's per-endpoint cap.
        payload: { deliveryId: row.id, webhookId: row.webhook_id },
        accountId,
        runAt: createdAt,
      })),
    );
  }
}

/**
 * `fanOutToWebhooks` for several events of one account recorded together: one statement finds
 * the endpoints subscribed to each, writes every delivery row and wakes the delivery lane.
 */
export async function fanOutManyToWebhooks(tx: Executor, list: RecordedEvent[]): Promise<void> {
  if (!list.length) return;
  const accountId = list[0].accountId;
  const createdAt = list[0].createdAt;
  const evs = list.map((e, n) => ({ n, event_id: e.envelope.id, event_type: e.envelope.type, payload: JSON.stringify(e.envelope) }));
  const ids = Array.from({ length: MAX_WEBHOOKS_PER_ACCOUNT * list.length }, () => newId("delivery", createdAt));
  const at = createdAt.toISOString();
  const inserted = await insertEventsDeliveries(tx, { accountId, events: evs, ids, at });
  if (getEnv().JOBS_BACKEND === "inngest") {
    await enqueueJobs(
      tx,
      inserted.map((row) => ({ kind: "webhook.deliver" as const, payload: { deliveryId: row.id, webhookId: row.webhook_id }, accountId, runAt: createdAt })),
    );
  }
}

/** The event kinds the SLA engine emits when a conversation is about to miss, or has missed, its target. */
const SLA_WARNING_EVENT = "sla.warning";
const SLA_BREACHED_EVENT = "sla.breached";

/** The `push.notify` job's payload: written here, read by the job (lib/push/notify.ts). */
export const pushNotifyPayload = z.object({
  accountId: z.string(),
  reason: z.enum(["new_message", "mention", "assignment", "sla_warning", "sla_breached"]),
  conversationId: z.string(),
  /** Who it is for; null: whoever the conversation concerns (its assignee, or everyone when unassigned). */
  userIds: z.array(z.string()).nullable(),
  messageId: z.string().optional(),
  noteId: z.string().optional(),
  /** The user who caused it, never pushed about their own act. */
  actorId: z.string().optional(),
  /** An SLA alert's conversation's team when it was raised (its members hear of it while unassigned). */
  teamId: z.string().nullable().optional(),
});
export type PushNotifyPayload = z.infer<typeof pushNotifyPayload>;

type Data = Record<string, unknown>;
const record = (value: unknown): Data => (value && typeof value === "object" ? (value as Data) : {});
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** What an event asks to push, if anything. */
function pushOf(accountId: string, type: string, data: Data): PushNotifyPayload | null {
  const conversation = record(data.conversation);
  const conversationId = text(conversation.id) ?? text(data.conversation_id);
  if (!conversationId) return null;
  if (type === "message.received") {
    const message = record(data.message);
    // A message the customer wrote: its conversation's assignee, or every teammate when unassigned.
    const assignee = text(conversation.assigned_to);
    return { accountId, reason: "new_message", conversationId, userIds: assignee ? [assignee] : null, messageId: text(message.id) };
  }
  if (type === "conversation.assigned") {
    const assignee = text(conversation.assigned_to);
    return assignee ? { accountId, reason: "assignment", conversationId, userIds: [assignee] } : null;
  }
  if (type === "note.created") {
    const note = record(data.note);
    const author = text(record(note.author).id);
    const mentioned = (Array.isArray(note.mentions) ? note.mentions : []).filter((id): id is string => typeof id === "string" && id !== author);
    return mentioned.length ? { accountId, reason: "mention", conversationId, userIds: mentioned, noteId: text(note.id), actorId: author } : null;
  }
  if (type === SLA_WARNING_EVENT || type === SLA_BREACHED_EVENT) {
    // The assignee; unassigned, the admins and the team's members (resolved by the job), as in the app.
    const assignee = text(conversation.assigned_to) ?? text(data.user_id);
    const reason = type === SLA_WARNING_EVENT ? "sla_warning" : "sla_breached";
    return { accountId, reason, conversationId, userIds: assignee ? [assignee] : null, teamId: text(conversation.team_id) ?? null };
  }
  return null;
}

/**
 * In the transaction that records an event: a `push.notify` job for the events people are
 * pushed about, written only when someone in the account has a device subscribed (one
 * statement, so accounts without push pay nothing more).
 */
export async function fanOutToPush(tx: Executor, { accountId, envelope, createdAt }: RecordedEvent): Promise<void> {
  const payload = pushOf(accountId, envelope.type, envelope.data);
  if (!payload) return;
  const at = createdAt.toISOString();
  await insertPushJobIfSubscribed(tx, { accountId, payload, at });
}
