import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { webhookDeliveries, webhooks } from "@/db/schema";
import type { EventFanOut } from "@/lib/events/record-event";
import { enqueueJobs, JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { DELIVERIES_SOURCE } from "@/lib/jobs/runner";
import { getEnv } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";

/**
 * Fans a recorded event out to the account's webhooks, in the transaction that recorded it:
 * one delivery row per active webhook subscribed to the type (the row is the local runner's
 * job; with JOBS_BACKEND=inngest a job row hands it to Inngest). `deliveryBody`
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
  const rows = targets.map((target) => ({ id: newId("delivery", createdAt), webhook_id: target.id }));
  const at = createdAt.toISOString();
  // One statement: the delivery rows (each its own job for the local runner, due now) and the
  // wake-up of the runner's delivery lane once the transaction commits.
  await tx.execute(sql`
    with inserted as (
      insert into ${webhookDeliveries} (id, account_id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
      select v.id, ${accountId}, v.webhook_id, ${envelope.id}, ${envelope.type}, ${payload}, 'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, webhook_id text)
      returning 1
    )
    select pg_notify(${JOBS_CHANNEL}, ${DELIVERIES_SOURCE}) from (select count(*) from inserted) as done`);
  // With JOBS_BACKEND=inngest the relay hands each delivery to Inngest through a job row (outbox).
  if (getEnv().JOBS_BACKEND === "inngest") {
    await enqueueJobs(
      tx,
      rows.map((row) => ({
        kind: "webhook.deliver" as const,
        // The endpoint groups its jobs for the runner's per-endpoint cap.
        payload: { deliveryId: row.id, webhookId: row.webhook_id },
        accountId,
        runAt: createdAt,
      })),
    );
  }
};
