import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { events, webhookDeliveries, webhooks } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { enqueueJobs } from "@/lib/jobs/enqueue";
import { type EventEnvelope, type EventType, streamOnlyEventTypes } from "./types";
import { isStreamedEvent } from "./visibility";

export const EVENTS_CHANNEL = "chorus_events";

/**
 * Records an event in the caller's transaction and fans it out: one delivery row (and
 * its job) per active webhook subscribed to the type, committed with the change itself.
 * `deliveryBody` replaces the envelope as the webhook body (the New Plant webhook).
 * `excludeWebhookId` leaves one webhook out (webhook.failed goes to the others only).
 * webhook.verified is never fanned out nor announced to live listeners: the verification
 * sends it to its one webhook. Stream-only events (agent.typing) reach live listeners only.
 */
export async function recordEvent(
  tx: Executor,
  input: { accountId: string; type: EventType; data: Record<string, unknown>; deliveryBody?: unknown; excludeWebhookId?: string },
): Promise<EventEnvelope> {
  const now = new Date();
  const id = newId("event", now);
  await tx.insert(events).values({ id, accountId: input.accountId, type: input.type, data: input.data, createdAt: now });
  const envelope: EventEnvelope = { id, type: input.type, created_at: now.toISOString(), data: input.data };

  if (input.type !== "webhook.verified" && !streamOnlyEventTypes.includes(input.type)) {
    const targets = await tx
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(
        and(
          eq(webhooks.accountId, input.accountId),
          eq(webhooks.status, "active"),
          sql`(${webhooks.events} @> ${JSON.stringify([input.type])}::jsonb or ${webhooks.events} @> '["*"]'::jsonb)`,
          input.excludeWebhookId ? sql`${webhooks.id} <> ${input.excludeWebhookId}` : undefined,
        ),
      );
    if (targets.length > 0) {
      // The body is frozen now: every attempt, automatic or manual, sends these exact bytes.
      const payload = JSON.stringify(input.deliveryBody ?? envelope);
      const deliveries = targets.map((target) => ({
        id: newId("delivery", now),
        accountId: input.accountId,
        webhookId: target.id,
        eventId: id,
        eventType: input.type,
        payload,
        status: "pending" as const,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      }));
      await tx.insert(webhookDeliveries).values(deliveries);
      await enqueueJobs(
        tx,
        deliveries.map((delivery) => ({
          kind: "webhook.deliver" as const,
          // The endpoint groups its jobs for the runner's per-endpoint cap.
          payload: { deliveryId: delivery.id, webhookId: delivery.webhookId },
          accountId: input.accountId,
          runAt: now,
        })),
      );
    }
  }
  // Delivered to listeners only when the transaction commits (live updates, other instances).
  if (isStreamedEvent(input.type)) await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ id, account_id: input.accountId })})`);
  return envelope;
}
