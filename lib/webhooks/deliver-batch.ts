import { sql } from "drizzle-orm";
import { rowsOf, toDate } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { type WebhookAttempt, type WebhookDelivery, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { type BatchOutcome, defineJob, type JobBatchHandler, type JobContext, type JobOutcome, OUTCOME_RECORDED, type PayloadOf } from "@/lib/jobs/define";
import { DELIVERIES_SOURCE } from "@/lib/jobs/source";
import { type AttemptOutcome, IN_FLIGHT_GRACE_MS, recordAttemptResult } from "./attempt-delivery";
import { type DeliveryJobPayload, deliveryJobPayload, runDeliveryJob } from "./deliver-job";
import { MAX_DELIVERY_ATTEMPTS } from "./schemas";
import { openWebhookSecret } from "./secret-at-rest";
import { type SendResult, sendSigned } from "./send";

type Item = { payload: DeliveryJobPayload; ctx: JobContext };
type Settle = { resolve: (outcome: BatchOutcome) => void; reject: (error: unknown) => void };
type Sent = {
  delivery: Pick<WebhookDelivery, "id" | "accountId" | "eventId" | "eventType">;
  webhookId: string;
  attemptRow: Pick<WebhookAttempt, "id" | "attempt">;
  result: SendResult;
  settle: Settle;
  /** The context its outcome is recorded with. */
  system: SystemContext;
  /** The claim count of the delivery row this attempt runs under (its lease ends with the outcome), or null. */
  claims: number | null;
};

/** The job outcome of a finished attempt, as the one-at-a-time path reports it. */
function jobOutcomeOf(result: AttemptOutcome): JobOutcome {
  if (result.done || !result.nextAttemptAt) return;
  return { retryAt: new Date(result.nextAttemptAt), error: result.error ?? undefined };
}

/**
 * The local runner's `webhook.deliver` jobs, one or many at a time (a single delivery is a
 * batch of one): one transaction reads every delivery with its endpoint (and the endpoint's
 * secret once) and writes every attempt row before anything is sent; the sends run in
 * parallel over kept-alive connections; answers that arrive together are written together.
 * Every unusual case (a takeover, an attempt row that exists already, an endpoint no longer
 * active, the end of the ladder) is handed to runDeliveryJob, which resumes, replays or stops
 * it. Attempt N is written before it is sent, and sent once unless its process dies.
 */
const runDeliveryBatch: JobBatchHandler<DeliveryJobPayload> = (items) => {
  const settles: Settle[] = [];
  const promises = items.map((_item, i) => new Promise<BatchOutcome>((resolve, reject) => (settles[i] = { resolve, reject })));
  void (items.length ? startBatch(items[0].ctx.system, items, settles) : Promise.resolve()).catch((error) => {
    for (const settle of settles) settle.reject(error);
  });
  return promises;
}

async function startBatch(system: SystemContext, items: Item[], settles: Settle[]) {
  const single = (index: number) => {
    runDeliveryJob(items[index].payload, items[index].ctx).then(settles[index].resolve, settles[index].reject);
  };
  const wanted = new Map<string, number>();
  items.forEach(({ payload: { deliveryId }, ctx }, index) => {
    // A job taken over from a dead process, or a delivery twice in one batch: one at a time.
    if (ctx.takeover || wanted.has(deliveryId)) single(index);
    else wanted.set(deliveryId, index);
  });
  if (!wanted.size) return;

  // One statement: read every delivery with its endpoint, and write the attempt row of each
  // one that is due (an attempt row that exists already is left to the one-at-a-time path).
  const attemptedAt = new Date();
  const now = items[0].ctx.now;
  const planned = [...wanted.keys()].map((deliveryId) => ({ delivery_id: deliveryId, attempt_id: newId("attempt", attemptedAt) }));
  const result = await system.db.execute(sql`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(planned)}::jsonb) as v(delivery_id text, attempt_id text)
    ),
    d as (
      select d.id, d.account_id, d.webhook_id, d.event_id, d.event_type, d.payload, d.status, d.attempts, d.next_attempt_at,
        w.url, w.secret, w.status as webhook_status, v.attempt_id
      from v
      -- Each row by its primary key, whatever the planner estimates (see recordResults).
      cross join lateral (select * from ${webhookDeliveries} d where d.id = v.delivery_id offset 0) d
      cross join lateral (select w.url, w.secret, w.status from ${webhooks} w where w.id = d.webhook_id offset 0) w
    ),
    ins as (
      insert into ${webhookAttempts} (id, account_id, webhook_id, delivery_id, event_id, event_type, attempt, status, attempted_at)
      select d.attempt_id, d.account_id, d.webhook_id, d.id, d.event_id, d.event_type, d.attempts + 1, 'pending', ${attemptedAt.toISOString()}::timestamptz
      from d
      where d.status = 'pending' and d.webhook_status = 'active' and d.attempts < ${MAX_DELIVERY_ATTEMPTS}
        and (d.next_attempt_at is null or d.next_attempt_at <= ${now.toISOString()}::timestamptz)
      on conflict do nothing
      returning id, delivery_id, attempt
    )
    -- The deliveries, then the attempt rows written (matched here by delivery: a join of the two
    -- would rescan one for each row of the other).
    select d.id, d.account_id, d.webhook_id, d.event_id, d.event_type, d.payload, d.status, d.attempts, d.next_attempt_at,
      d.url, d.secret, d.webhook_status, null as attempt_id, null::int as attempt_number
    from d
    union all
    select ins.delivery_id, null, null, null, null, null, null, null, null, null, null, null, ins.id, ins.attempt from ins`);
  const rows = rowsOf<StartRow>(result);
  const found = new Map(rows.filter((row) => row.attempt_id == null).map((row) => [row.id, row]));
  for (const row of rows) {
    const delivery = row.attempt_id == null ? undefined : found.get(row.id);
    if (delivery) Object.assign(delivery, { attempt_id: row.attempt_id, attempt_number: row.attempt_number });
  }

  const secrets = new Map<string, string | null>();
  for (const [deliveryId, index] of wanted) {
    const row = found.get(deliveryId);
    const nextAttemptAt = row?.next_attempt_at == null ? null : toDate(row.next_attempt_at);
    if (!row || row.status !== "pending") {
      settles[index].resolve();
      continue;
    }
    if (row.attempt_id == null) {
      // A manual "retry now" may have run this attempt already and moved the next one later.
      if (nextAttemptAt && nextAttemptAt > items[index].ctx.now) settles[index].resolve({ retryAt: nextAttemptAt });
      // The endpoint is no longer active, the ladder is over, or this attempt row exists already:
      // the one-at-a-time way knows how to resume, replay or stop it.
      else single(index);
      continue;
    }
    const webhook = { id: row.webhook_id, accountId: row.account_id, secret: row.secret };
    if (!secrets.has(webhook.id)) secrets.set(webhook.id, openWebhookSecret(webhook));
    const delivery = { id: row.id, accountId: row.account_id, eventId: row.event_id, eventType: row.event_type };
    const attemptRow = { id: row.attempt_id, attempt: Number(row.attempt_number) };
    const { ctx } = items[index];
    // A delivery claimed from its own row: the lease ends in the statement that records the answer.
    const claims = ctx.source === DELIVERIES_SOURCE && ctx.claimed ? ctx.attempt : null;
    void sendSigned({
      url: row.url,
      secret: secrets.get(webhook.id)!,
      body: row.payload,
      eventId: row.event_id,
      eventType: row.event_type,
      deliveryId: row.id,
      attempt: attemptRow.attempt,
    }).then((sent) => queueResult({ delivery, webhookId: webhook.id, attemptRow, result: sent, settle: settles[index], system, claims }));
  }
}

type StartRow = {
  id: string;
  account_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | string | null;
  url: string;
  secret: string;
  webhook_status: string;
  attempt_id: string | null;
  attempt_number: number | null;
};

// Answers that arrive while a write is under way are written together by the next one.
let queued: Sent[] = [];
let writing = false;

/**
 * The embedded database runs a statement without yielding to I/O, so a write started at once
 * would take the first answer alone and hold back the others until it commits. Each write
 * waits for the answers already received (setImmediate runs after pending I/O callbacks).
 */
const afterPendingIo = () => new Promise<void>((resolve) => setImmediate(resolve));

function queueResult(sent: Sent) {
  queued.push(sent);
  if (!writing) void writeResults();
}

async function writeResults() {
  writing = true;
  try {
    while ((await afterPendingIo(), queued.length)) {
      const batch = queued;
      queued = [];
      try {
        const outcomes = await recordResults(batch);
        batch.forEach((sent, i) => sent.settle.resolve(outcomes[i]));
      } catch (error) {
        // One at a time then, so that one bad row cannot hold up the others.
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message.split("\n")[0] : String(error);
        console.error(`webhook deliveries: writing ${batch.length} outcomes together failed (${cause}); writing them one by one`);
        for (const sent of batch) {
          try {
            sent.settle.resolve(jobOutcomeOf(await sent.system.db.transaction((tx) => recordAttemptResult({ ...sent.system, db: tx }, { ...sent, mode: "scheduled" }))));
          } catch (failure) {
            sent.settle.reject(failure);
          }
        }
      }
    }
  } finally {
    writing = false;
  }
}

/**
 * The common outcomes (a 2xx; a failure with retries left) of many attempts in one
 * statement, which also checks that each delivery is still pending and its endpoint still
 * active; anything else (the last attempt, 410 Gone, an endpoint disabled or a delivery
 * finished meanwhile) through recordAttemptResult, each in its own transaction.
 */
async function recordResults(batch: Sent[]): Promise<BatchOutcome[]> {
  const env = getEnv();
  const finishedAt = new Date();
  const outcomes: BatchOutcome[] = new Array(batch.length);
  const rows: Record<string, unknown>[] = [];
  const common: number[] = [];
  const rare: number[] = [];
  batch.forEach((sent, i) => {
    const { result, attemptRow } = sent;
    const fields = {
      attempt_id: attemptRow.id,
      delivery_id: sent.delivery.id,
      n: attemptRow.attempt,
      response_status: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      claims: sent.claims,
    };
    if (result.ok) {
      rows.push({ ...fields, ok: true, next: null, last_error: null });
      outcomes[i] = sent.claims !== null ? OUTCOME_RECORDED : undefined;
      common.push(i);
    } else if (result.status !== 410 && attemptRow.attempt < MAX_DELIVERY_ATTEMPTS) {
      const next = new Date(finishedAt.getTime() + env.WEBHOOK_RETRY_SCHEDULE[attemptRow.attempt - 1] * 1000);
      const lastError = result.error ?? (result.status ? `unexpected status ${result.status}` : "failed");
      rows.push({ ...fields, ok: false, next: next.toISOString(), last_error: lastError });
      outcomes[i] = sent.claims !== null ? OUTCOME_RECORDED : { retryAt: next, error: result.error ?? undefined };
      common.push(i);
    } else {
      rare.push(i);
    }
  });

  if (rows.length) {
    // Only attempts still pending, of deliveries still pending, of endpoints still active (an
    // attempt another process took over meanwhile is left to it); the rest go the rare way.
    // Every row is reached by its primary key from the answer it belongs to, whatever the
    // planner estimates: a plan is kept while its tables grow, made on guesses on the embedded
    // database until its tables are first analyzed, and a join it reorders (or an index that
    // also holds the id, with the status as a filter) would scan a whole table or index on each
    // write. So each row is looked up and locked one answer at a time, in id order (a lateral
    // subquery with a lock and an offset is never merged into a join, nor given the filters
    // outside it), and each update is bounded by the primary keys of the rows the statement
    // already holds (a hash join of those rows with the table would scan all of it).
    const result = await batch[0].system.db.execute(sql`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(attempt_id text, delivery_id text, ok boolean,
          n int, response_status int, response_body text, duration_ms int, error text, next timestamptz, last_error text, claims int)
      ),
      current as (
        select v.*, d.webhook_id, a.status as attempt_status
        from (select * from v order by delivery_id) v
        cross join lateral (
          select d.webhook_id, d.status from ${webhookDeliveries} d where d.id = v.delivery_id for update of d offset 0
        ) d
        -- Gone when another process took the attempt over (it writes the attempt again).
        left join lateral (
          -- After its delivery (the reference to d): the delivery's lock is always taken first.
          select a.status from ${webhookAttempts} a where a.id = v.attempt_id and d.status = 'pending' for update of a offset 0
        ) a on true
        where d.status = 'pending' and (select w.status from ${webhooks} w where w.id = d.webhook_id) = 'active'
      ),
      saved as (
        update ${webhookAttempts} a set status = case when c.ok then 'succeeded' else 'failed' end,
          response_status = c.response_status, response_body = c.response_body, duration_ms = c.duration_ms,
          error = c.error, next_attempt_at = c.next
        from current c where a.id = c.attempt_id and c.attempt_status = 'pending'
          and a.id = any(array(select attempt_id from current where attempt_status = 'pending'))
        returning a.delivery_id, c.webhook_id, c.ok, c.n, c.next, c.last_error, c.claims
      ),
      deliveries as (
        update ${webhookDeliveries} d set
          status = case when s.ok then 'succeeded' else d.status end,
          attempts = greatest(d.attempts, s.n),
          next_attempt_at = s.next,
          last_error = s.last_error,
          completed_at = case when s.ok then ${finishedAt.toISOString()}::timestamptz else d.completed_at end,
          updated_at = ${finishedAt.toISOString()}::timestamptz,
          -- The lease of the claim that ran this attempt ends with it.
          locked_until = case when d.claims = s.claims then null else d.locked_until end
        from saved s where d.id = s.delivery_id and d.id = any(array(select delivery_id from saved))
        returning d.id, s.webhook_id, s.ok
      ),
      endpoints as (
        update ${webhooks} w set consecutive_failures = 0, updated_at = ${finishedAt.toISOString()}::timestamptz
        where w.id in (select webhook_id from deliveries where ok) and w.consecutive_failures <> 0
      )
      select delivery_id, false as written from current
      union all select id, true from deliveries`);
    // Each delivery still current is listed once unwritten, and once more if it was written.
    const checked = new Map<string, boolean>();
    for (const row of rowsOf<{ delivery_id: string; written: boolean | string }>(result)) {
      const written = row.written === true || row.written === "t";
      checked.set(row.delivery_id, checked.get(row.delivery_id) === true || written);
    }
    for (const i of common) {
      const written = checked.get(batch[i].delivery.id);
      // Taken over meanwhile (its attempt row is no longer pending): whoever took it over owns the
      // attempt; the delivery comes due again once an attempt in flight would be presumed dead, in
      // case that one dies too (then it finds the outcome recorded, or sends again).
      if (written === false) outcomes[i] = { retryAt: new Date(Date.now() + env.WEBHOOK_TIMEOUT_MS + IN_FLIGHT_GRACE_MS) };
      // No longer pending, endpoint no longer active, or deleted: the one-at-a-time way decides.
      else if (written === undefined) rare.push(i);
    }
  }
  for (const i of rare) outcomes[i] = jobOutcomeOf(await batch[i].system.db.transaction((tx) => recordAttemptResult({ ...batch[i].system, db: tx }, { ...batch[i], mode: "scheduled" })));
  return outcomes;
}

/**
 * The `webhook.deliver` job: a delivery's next attempt (the local runner claims deliveries from
 * their own rows; with JOBS_BACKEND=inngest a job row relays it to Inngest). One at a time, or
 * many together on the local runner.
 */
export const deliverWebhookJob = defineJob({
  kind: "webhook.deliver",
  schema: deliveryJobPayload,
  // One attempt path: a single delivery is a batch of one.
  handler: (payload, ctx) => runDeliveryBatch([{ payload, ctx }])[0],
  batch: runDeliveryBatch,
});

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "webhook.deliver": PayloadOf<typeof deliverWebhookJob>;
  }
}
