import { sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { webhookDeliveries, webhooks } from "@/db/schema";
import type { EventFanOut, EventFanOutMany } from "@/lib/events/record-event";
import { enqueueJobs, JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { DELIVERIES_SOURCE } from "@/lib/jobs/runner";
import { getEnv } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { MAX_WEBHOOKS_PER_ACCOUNT } from "./schemas";

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
export const fanOutToWebhooks: EventFanOut = async (tx: Executor, { accountId, envelope, createdAt, deliveryBody, excludeWebhookId }) => {
  // The body is frozen now: every attempt, automatic or manual, sends these exact bytes.
  const payload = JSON.stringify(deliveryBody ?? envelope);
  const ids = Array.from({ length: MAX_WEBHOOKS_PER_ACCOUNT }, () => newId("delivery", createdAt));
  const at = createdAt.toISOString();
  const w = webhooks;
  const result = await tx.execute(sql`
    with targets as (
      select ${w.id} as webhook_id, row_number() over (order by ${w.id}) as n from ${w}
      where ${w.accountId} = ${accountId} and ${w.status} = 'active'
        and (${w.events} @> ${JSON.stringify([envelope.type])}::jsonb or ${w.events} @> '["*"]'::jsonb)
        and ${w.id} <> ${excludeWebhookId ?? ""}
    ),
    ids as (
      select id, n from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as x(id, n)
    ),
    inserted as (
      insert into ${webhookDeliveries} (id, account_id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
      -- More endpoints than the cap (it is enforced on creation) would still each get a unique id.
      select coalesce(ids.id, 'dlv_' || replace(gen_random_uuid()::text, '-', '')), ${accountId}, t.webhook_id, ${envelope.id}, ${envelope.type},
        ${payload}, 'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from targets t left join ids on ids.n = t.n
      returning id, webhook_id
    ),
    woken as (select pg_notify(${JOBS_CHANNEL}, ${DELIVERIES_SOURCE}))
    select i.id, i.webhook_id, (select count(*) from woken) as woken from inserted i`);
  // With JOBS_BACKEND=inngest the relay hands each delivery to Inngest through a job row (outbox).
  if (getEnv().JOBS_BACKEND === "inngest") {
    const rows = rowsOf<{ id: string; webhook_id: string }>(result);
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

/**
 * `fanOutToWebhooks` for several events of one account recorded together: one statement finds
 * the endpoints subscribed to each, writes every delivery row and wakes the delivery lane.
 */
export const fanOutManyToWebhooks: EventFanOutMany = async (tx: Executor, list) => {
  if (!list.length) return;
  const accountId = list[0].accountId;
  const createdAt = list[0].createdAt;
  const evs = list.map((e, n) => ({ n, event_id: e.envelope.id, event_type: e.envelope.type, payload: JSON.stringify(e.envelope) }));
  const ids = Array.from({ length: MAX_WEBHOOKS_PER_ACCOUNT * list.length }, () => newId("delivery", createdAt));
  const at = createdAt.toISOString();
  const w = webhooks;
  const result = await tx.execute(sql`
    with evs as (
      select * from jsonb_to_recordset(${JSON.stringify(evs)}::jsonb) as x(n int, event_id text, event_type text, payload text)
    ),
    targets as (
      select ${w.id} as webhook_id, e.event_id, e.event_type, e.payload, row_number() over (order by e.n, ${w.id}) as k
      from ${w} join evs e on (${w.events} @> jsonb_build_array(e.event_type) or ${w.events} @> '["*"]'::jsonb)
      where ${w.accountId} = ${accountId} and ${w.status} = 'active'
    ),
    ids as (
      select id, n from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as x(id, n)
    ),
    inserted as (
      insert into ${webhookDeliveries} (id, account_id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
      select coalesce(ids.id, 'dlv_' || replace(gen_random_uuid()::text, '-', '')), ${accountId}, t.webhook_id, t.event_id, t.event_type,
        t.payload, 'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from targets t left join ids on ids.n = t.k
      returning id, webhook_id
    ),
    woken as (select pg_notify(${JOBS_CHANNEL}, ${DELIVERIES_SOURCE}) where exists (select 1 from inserted))
    select i.id, i.webhook_id, (select count(*) from woken) as woken from inserted i`);
  if (getEnv().JOBS_BACKEND === "inngest") {
    const rows = rowsOf<{ id: string; webhook_id: string }>(result);
    await enqueueJobs(
      tx,
      rows.map((row) => ({ kind: "webhook.deliver" as const, payload: { deliveryId: row.id, webhookId: row.webhook_id }, accountId, runAt: createdAt })),
    );
  }
};
