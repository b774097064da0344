import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { webhookDeliveries, webhooks } from "@/db/schema";
import type { EventFanOut } from "@/lib/events/record-event";
import { enqueueJobs } from "@/lib/jobs/enqueue";
import { newId } from "@/lib/platform/ids";

/**
 * Fans a recorded event out to the account's webhooks, in the transaction that recorded it:
 * one delivery row (and its job) per active webhook subscribed to the type. `deliveryBody`
 * replaces the envelope as the body (the New Plant webhook); `excludeWebhookId` leaves one
 * webhook out (webhook.failed goes to the others only).
 */
export const fanOutToWebhooks: EventFanOut = async (tx: Executor, { accountId, envelope, createdAt, deliveryBody, excludeWebhookId }) => {
  const targets = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.accountId, accountId),
        eq(webhooks.status, "active"),
        sql`(${webhooks.events} @> ${JSON.stringify([envelope.type])}::jsonb or ${webhooks.events} @> '["*"]'::jsonb)`,
        excludeWebhookId ? sql`${webhooks.id} <> ${excludeWebhookId}` : undefined,
      ),
    );
  if (targets.length === 0) return;
  // The body is frozen now: every attempt, automatic or manual, sends these exact bytes.
  const payload = JSON.stringify(deliveryBody ?? envelope);
  const deliveries = targets.map((target) => ({
    id: newId("delivery", createdAt),
    accountId,
    webhookId: target.id,
    eventId: envelope.id,
    eventType: envelope.type,
    payload,
    status: "pending" as const,
    nextAttemptAt: createdAt,
    createdAt,
    updatedAt: createdAt,
  }));
  await tx.insert(webhookDeliveries).values(deliveries);
  await enqueueJobs(
    tx,
    deliveries.map((delivery) => ({
      kind: "webhook.deliver" as const,
      // The endpoint groups its jobs for the runner's per-endpoint cap.
      payload: { deliveryId: delivery.id, webhookId: delivery.webhookId },
      accountId,
      runAt: createdAt,
    })),
  );
};
