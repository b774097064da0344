import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { newId } from "@/lib/platform/ids";
import { fanOutManyToWebhooks, fanOutToPush, fanOutToWebhooks, type RecordedEvent } from "./fan-out";
import { type EventEnvelope, type EventType, streamOnlyEventTypes } from "./types";
import { insertEvent, insertEvents } from "./store";
import { isStreamedEvent } from "./visibility";

/** Delivery rows for the webhooks, then the push job: both in the event's transaction. */
async function fanOut(tx: Executor, event: RecordedEvent) {
  await fanOutToWebhooks(tx, event);
  await fanOutToPush(tx, event);
}

/**
 * Records an event in the caller's transaction and enqueues its fan-out there (./fan-out.ts:
 * a delivery row per subscribed webhook, a push job), committed with the change itself; live
 * listeners hear of it on commit through the row's notification (./hub.ts listens, ./stream.ts serves), and the context's
 * reaction (the automation rules) runs before it commits. `deliveryBody` replaces the envelope as the webhook body
 * (the New Plant webhook). `excludeWebhookId` leaves one webhook out (webhook.failed goes to
 * the others only). webhook.verified is never fanned out nor announced to live listeners: the
 * verification sends it to its one webhook. Stream-only events (agent.typing) reach live
 * listeners only.
 */
export async function recordEvent(
  ctx: SystemContext,
  input: { accountId: string; type: EventType; data: Record<string, unknown>; deliveryBody?: unknown; excludeWebhookId?: string },
): Promise<EventEnvelope> {
  const now = new Date();
  const id = newId("event", now);
  const streamed = isStreamedEvent(input.type);
  const fannedOut = input.type !== "webhook.verified" && !streamOnlyEventTypes.includes(input.type);
  const tx = ctx.db;
  // One statement: the event row and, for live listeners, its notification on commit. In a
  // transaction it starts now (`then`), and the fan-out's statement goes right behind it without
  // waiting for its answer: one round trip for both on a server database. Outside one (each
  // statement its own commit, perhaps on another connection) the fan-out waits for the event
  // row, so that a failed event row never leaves deliveries behind.
  const inTransaction = "rollback" in tx;
  const recorded = insertEvent(tx, { id, accountId: input.accountId, type: input.type, data: input.data, at: now, notify: streamed });
  const envelope: EventEnvelope = { id, type: input.type, created_at: now.toISOString(), data: input.data };
  if (!inTransaction) await recorded;
  const delivered = fannedOut
    ? fanOut(tx, { accountId: input.accountId, envelope, createdAt: now, deliveryBody: input.deliveryBody, excludeWebhookId: input.excludeWebhookId })
    : undefined;
  // The event row's own error first: a fan-out after a failed statement fails only because of it.
  const [row, fan] = await Promise.allSettled([recorded, delivered]);
  if (row.status === "rejected") throw row.reason;
  if (fan.status === "rejected") throw fan.reason;
  // Rules react in the event's transaction only: what they do commits, or not, with the event.
  if (inTransaction) await ctx.react({ accountId: input.accountId, db: tx, react: ctx.react }, envelope);
  // Delivered to listeners only when the transaction commits (live updates, other instances).
  return envelope;
}

/**
 * Several events of one account recorded together in the caller's transaction (a campaign
 * starting many conversations): one statement writes every row and its notification for live
 * listeners, the fan-out takes them together, and rules react to each as `recordEvent` does.
 * Events that are not fanned out like the others (webhook.verified, stream-only ones) and
 * calls outside a transaction are recorded one by one.
 */
export async function recordEvents(ctx: SystemContext, input: { accountId: string; type: EventType; data: Record<string, unknown> }[]): Promise<EventEnvelope[]> {
  const tx = ctx.db;
  const plain = input.every((e) => e.accountId === input[0].accountId && e.type !== "webhook.verified" && !streamOnlyEventTypes.includes(e.type));
  if (input.length < 2 || !plain || !("rollback" in tx)) {
    const out: EventEnvelope[] = [];
    for (const e of input) out.push(await recordEvent(ctx, e));
    return out;
  }
  const now = new Date();
  const envelopes: EventEnvelope[] = input.map((e) => ({ id: newId("event", now), type: e.type, created_at: now.toISOString(), data: e.data }));
  const rows = envelopes.map((envelope) => ({
    id: envelope.id,
    type: envelope.type,
    data: envelope.data,
    notify: isStreamedEvent(envelope.type) ? JSON.stringify({ id: envelope.id, account_id: input[0].accountId }) : null,
  }));
  await insertEvents(tx, { accountId: input[0].accountId, rows, at: now });
  const fanned = envelopes.map((envelope) => ({ accountId: input[0].accountId, envelope, createdAt: now }));
  await fanOutManyToWebhooks(tx, fanned);
  for (const event of fanned) await fanOutToPush(tx, event);
  for (const envelope of envelopes) await ctx.react({ accountId: input[0].accountId, db: tx, react: ctx.react }, envelope);
  return envelopes;
}
