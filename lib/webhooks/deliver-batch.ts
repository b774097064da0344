import { inArray, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db";
import { type WebhookAttempt, type WebhookDelivery, type Webhook, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import type { JobBatchHandler, JobContext, JobOutcome } from "@/lib/jobs/runner";
import { type AttemptOutcome, recordAttemptResult } from "./attempt-delivery";
import { deliveryJobPayload, runDeliveryJob } from "./deliver-job";
import { MAX_DELIVERY_ATTEMPTS } from "./schemas";
import { openWebhookSecret } from "./secret-at-rest";
import { type SendResult, sendSigned } from "./send";

type Item = { payload: Record<string, unknown>; ctx: JobContext };
type Settle = { resolve: (outcome: JobOutcome) => void; reject: (error: unknown) => void };
type Sent = {
  delivery: Pick<WebhookDelivery, "id" | "accountId" | "eventId" | "eventType">;
  webhookId: string;
  attemptRow: Pick<WebhookAttempt, "id" | "attempt">;
  result: SendResult;
  settle: Settle;
};

/** The job outcome of a finished attempt, as the one-at-a-time path reports it. */
export function jobOutcomeOf(result: AttemptOutcome): JobOutcome {
  if (result.done || !result.nextAttemptAt) return;
  return { retryAt: new Date(result.nextAttemptAt), error: result.error ?? undefined };
}

/**
 * The local runner's `webhook.deliver` jobs, many at a time: one transaction reads every
 * delivery with its endpoint (and the endpoint's secret once) and writes every attempt row
 * before anything is sent; the sends run in parallel over kept-alive connections; answers
 * that arrive together are written together. Same guarantees as one at a time
 * (runDeliveryJob, to which every unusual case is handed): attempt N is written before it
 * is sent, and sent once unless its process dies.
 */
export const runDeliveryBatch: JobBatchHandler = (items) => {
  const settles: Settle[] = [];
  const promises = items.map((_item, i) => new Promise<JobOutcome>((resolve, reject) => (settles[i] = { resolve, reject })));
  void startBatch(items, settles).catch((error) => {
    for (const settle of settles) settle.reject(error);
  });
  return promises;
};

async function startBatch(items: Item[], settles: Settle[]) {
  const single = (index: number) => {
    runDeliveryJob(items[index].payload, items[index].ctx).then(settles[index].resolve, settles[index].reject);
  };
  const wanted = new Map<string, number>();
  items.forEach((item, index) => {
    const parsed = deliveryJobPayload.safeParse(item.payload);
    if (!parsed.success) settles[index].resolve({ failed: "the job payload has no deliveryId" });
    // A job taken over from a dead process, or a delivery twice in one batch: one at a time.
    else if (item.ctx.takeover || wanted.has(parsed.data.deliveryId)) single(index);
    else wanted.set(parsed.data.deliveryId, index);
  });
  if (!wanted.size) return;
  const now = items[0].ctx.now;

  const started = await getDb().transaction(async (tx) => {
    const rows = await tx
      .select({ delivery: webhookDeliveries, webhook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, sql`${webhooks.id} = ${webhookDeliveries.webhookId}`)
      .where(inArray(webhookDeliveries.id, [...wanted.keys()]))
      .orderBy(webhookDeliveries.id)
      .for("update", { of: webhookDeliveries });
    const found = new Map(rows.map((row) => [row.delivery.id, row]));
    const toSend: { index: number; delivery: WebhookDelivery; webhook: Webhook; attempt: number }[] = [];
    const later: number[] = [];
    for (const [deliveryId, index] of wanted) {
      const row = found.get(deliveryId);
      if (!row || row.delivery.status !== "pending") settles[index].resolve();
      // A manual "retry now" may have run this attempt already and moved the next one later.
      else if (row.delivery.nextAttemptAt && row.delivery.nextAttemptAt > items[index].ctx.now) settles[index].resolve({ retryAt: row.delivery.nextAttemptAt });
      else if (row.webhook.status !== "active" || row.delivery.attempts + 1 > MAX_DELIVERY_ATTEMPTS) later.push(index);
      else toSend.push({ index, delivery: row.delivery, webhook: row.webhook, attempt: row.delivery.attempts + 1 });
    }
    if (!toSend.length) return { toSend: [], inserted: new Map<string, WebhookAttempt>(), later };
    const attemptedAt = new Date();
    const inserted = await tx
      .insert(webhookAttempts)
      .values(
        toSend.map(({ delivery, webhook, attempt }) => ({
          id: newId("attempt", attemptedAt),
          accountId: delivery.accountId,
          webhookId: webhook.id,
          deliveryId: delivery.id,
          eventId: delivery.eventId,
          eventType: delivery.eventType,
          attempt,
          status: "pending" as const,
          attemptedAt,
        })),
      )
      .onConflictDoNothing()
      .returning();
    return { toSend, inserted: new Map(inserted.map((row) => [row.deliveryId, row])), later };
  });

  // Unusual cases (this attempt row exists already, the endpoint is no longer active) go the
  // one-at-a-time way, which knows how to resume, replay or stop them.
  for (const index of started.later) single(index);
  const secrets = new Map<string, string | null>();
  for (const { index, delivery, webhook } of started.toSend) {
    const attemptRow = started.inserted.get(delivery.id);
    if (!attemptRow) {
      single(index);
      continue;
    }
    if (!secrets.has(webhook.id)) secrets.set(webhook.id, openWebhookSecret(webhook));
    void sendSigned({
      url: webhook.url,
      secret: secrets.get(webhook.id)!,
      body: delivery.payload,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      deliveryId: delivery.id,
      attempt: attemptRow.attempt,
    }).then((result) => queueResult({ delivery, webhookId: webhook.id, attemptRow, result, settle: settles[index] }));
  }
}

// Answers that arrive while a write is under way are written together by the next one.
let queued: Sent[] = [];
let writing = false;

function queueResult(sent: Sent) {
  queued.push(sent);
  if (!writing) void writeResults();
}

async function writeResults() {
  writing = true;
  try {
    while (queued.length) {
      const batch = queued;
      queued = [];
      try {
        const outcomes = await getDb().transaction((tx) => recordResults(tx, batch));
        batch.forEach((sent, i) => sent.settle.resolve(outcomes[i]));
      } catch (error) {
        // One at a time then, so that one bad row cannot hold up the others.
        console.error(`webhook deliveries: writing ${batch.length} outcomes together failed, writing them one by one: ${error instanceof Error ? error.message : error}`);
        for (const sent of batch) {
          await getDb()
            .transaction((tx) => recordAttemptResult(tx, { ...sent, mode: "scheduled" }))
            .then((result) => sent.settle.resolve(jobOutcomeOf(result)), sent.settle.reject);
        }
      }
    }
  } finally {
    writing = false;
  }
}

/**
 * The common outcomes (a 2xx; a failure with retries left) of many attempts in one
 * statement; anything else (the last attempt, 410 Gone, an endpoint disabled meanwhile)
 * through recordAttemptResult, in the same transaction.
 */
async function recordResults(tx: Tx, batch: Sent[]): Promise<JobOutcome[]> {
  const env = getEnv();
  const ids = batch.map((sent) => sent.delivery.id);
  const current = await tx
    .select({ id: webhookDeliveries.id, status: webhookDeliveries.status, webhookStatus: webhooks.status })
    .from(webhookDeliveries)
    .innerJoin(webhooks, sql`${webhooks.id} = ${webhookDeliveries.webhookId}`)
    .where(inArray(webhookDeliveries.id, ids))
    .orderBy(webhookDeliveries.id)
    .for("update", { of: webhookDeliveries });
  const state = new Map(current.map((row) => [row.id, row]));
  const finishedAt = new Date();
  const outcomes: JobOutcome[] = new Array(batch.length);
  const rows: Record<string, unknown>[] = [];
  const rare: number[] = [];
  batch.forEach((sent, i) => {
    const { result, attemptRow } = sent;
    const now = state.get(sent.delivery.id);
    if (!now) {
      // The webhook was deleted meanwhile.
      outcomes[i] = undefined;
      return;
    }
    const common = now.status === "pending" && now.webhookStatus === "active";
    if (common && result.ok) {
      rows.push({
        attempt_id: attemptRow.id,
        delivery_id: sent.delivery.id,
        webhook_id: sent.webhookId,
        ok: true,
        n: attemptRow.attempt,
        response_status: result.status,
        response_body: result.body,
        duration_ms: result.durationMs,
        error: result.error,
        next: null,
        last_error: null,
      });
      outcomes[i] = undefined;
    } else if (common && !result.ok && result.status !== 410 && attemptRow.attempt < MAX_DELIVERY_ATTEMPTS) {
      const next = new Date(finishedAt.getTime() + env.WEBHOOK_RETRY_SCHEDULE[attemptRow.attempt - 1] * 1000);
      const lastError = result.error ?? (result.status ? `unexpected status ${result.status}` : "failed");
      rows.push({
        attempt_id: attemptRow.id,
        delivery_id: sent.delivery.id,
        webhook_id: sent.webhookId,
        ok: false,
        n: attemptRow.attempt,
        response_status: result.status,
        response_body: result.body,
        duration_ms: result.durationMs,
        error: result.error,
        next: next.toISOString(),
        last_error: lastError,
      });
      outcomes[i] = { retryAt: next, error: result.error ?? undefined };
    } else {
      rare.push(i);
    }
  });

  if (rows.length) {
    // An attempt another process took over meanwhile (no longer pending) is left to it.
    await tx.execute(sql`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(attempt_id text, delivery_id text, webhook_id text, ok boolean,
          n int, response_status int, response_body text, duration_ms int, error text, next timestamptz, last_error text)
      ),
      saved as (
        update ${webhookAttempts} a set status = case when v.ok then 'succeeded' else 'failed' end,
          response_status = v.response_status, response_body = v.response_body, duration_ms = v.duration_ms,
          error = v.error, next_attempt_at = v.next
        from v where a.id = v.attempt_id and a.status = 'pending'
        returning a.delivery_id
      ),
      deliveries as (
        update ${webhookDeliveries} d set
          status = case when v.ok then 'succeeded' else d.status end,
          attempts = greatest(d.attempts, v.n),
          next_attempt_at = v.next,
          last_error = v.last_error,
          completed_at = case when v.ok then ${finishedAt.toISOString()}::timestamptz else d.completed_at end,
          updated_at = ${finishedAt.toISOString()}::timestamptz
        from v where d.id = v.delivery_id and d.id in (select delivery_id from saved)
        returning d.webhook_id, v.ok
      )
      update ${webhooks} w set consecutive_failures = 0, updated_at = ${finishedAt.toISOString()}::timestamptz
      where w.id in (select webhook_id from deliveries where ok) and w.consecutive_failures <> 0`);
  }
  for (const i of rare) outcomes[i] = jobOutcomeOf(await recordAttemptResult(tx, { ...batch[i], mode: "scheduled" }));
  return outcomes;
}
