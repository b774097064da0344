import { and, count, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { type Executor, rowsOf } from "@/db";
import { accounts, type Webhook, type WebhookAttempt, type WebhookDelivery, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import { NotFoundError } from "@/lib/platform/errors";
import { MAX_DELIVERY_ATTEMPTS } from "./schemas";

/** A webhook of the caller's account; another account's id is a 404 like an unknown one. */
export async function findWebhook(tx: Executor, accountId: string, id: string, { lock = false } = {}): Promise<Webhook> {
  const query = tx
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)))
    .limit(1);
  const [webhook] = lock ? await query.for("update") : await query;
  if (!webhook) throw new NotFoundError("Webhook");
  return webhook;
}

// ---- Attempts: the writes of the one attempt path (./attempt-delivery.ts, ./record-attempt.ts).
// A job names only its delivery, so a delivery is first read by its id; every later statement
// names the account the delivery belongs to.

/** One attempt asked for in a batch: `n` null is the delivery's next attempt, once it is due at `now`. */
export type PlannedAttempt = { delivery_id: string; attempt_id: string; n: number | null; now: string };

/** A delivery with its endpoint as the batch start reads it, and the attempt row written for it (if any). */
export type StartRow = {
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

/**
 * One statement: reads every planned delivery with its endpoint, and writes the attempt row of
 * each one that can be sent now (pending, endpoint active, within the ladder and, unless a
 * number was asked for, due). An attempt row that exists already is left alone (on conflict).
 * Returns each delivery found, with the attempt row written for it merged in.
 */
export async function startPlannedAttempts(db: Executor, planned: PlannedAttempt[], attemptedAt: Date): Promise<Map<string, StartRow>> {
  const result = await db.execute(sql`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(planned)}::jsonb) as v(delivery_id text, attempt_id text, n int, now timestamptz)
    ),
    d as (
      select d.id, d.account_id, d.webhook_id, d.event_id, d.event_type, d.payload, d.status, d.attempts, d.next_attempt_at,
        w.url, w.secret, w.status as webhook_status, v.attempt_id, coalesce(v.n, d.attempts + 1) as n,
        v.n is null and d.next_attempt_at is not null and d.next_attempt_at > v.now as not_due
      from v
      -- Each row by its primary key, whatever the planner estimates (see recordCommonOutcomes).
      cross join lateral (select * from ${webhookDeliveries} d where d.id = v.delivery_id offset 0) d
      cross join lateral (select w.url, w.secret, w.status from ${webhooks} w where w.id = d.webhook_id and w.account_id = d.account_id offset 0) w
    ),
    ins as (
      insert into ${webhookAttempts} (id, account_id, webhook_id, delivery_id, event_id, event_type, attempt, status, attempted_at)
      select d.attempt_id, d.account_id, d.webhook_id, d.id, d.event_id, d.event_type, d.n, 'pending', ${attemptedAt.toISOString()}::timestamptz
      from d
      where d.status = 'pending' and d.webhook_status = 'active' and d.n <= ${MAX_DELIVERY_ATTEMPTS} and not d.not_due
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
  return found;
}

/** One finished attempt of the common kind (a 2xx, or a failure with retries left). */
export type CommonOutcomeRow = {
  attempt_id: string;
  delivery_id: string;
  account_id: string;
  ok: boolean;
  n: number;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  next: string | null;
  last_error: string | null;
  /** The claim count of the delivery row this attempt ran under (its lease ends with it), or null. */
  claims: number | null;
};

/**
 * The common outcomes of many attempts in one statement, written only for attempts still
 * pending, of deliveries still pending, of endpoints still active. Returns, per delivery still
 * current, whether its outcome was written (false: another process took the attempt over
 * meanwhile); a delivery absent from the map is no longer pending, or its endpoint is no longer
 * active or gone.
 */
export async function recordCommonOutcomes(db: Executor, rows: CommonOutcomeRow[], finishedAt: Date): Promise<Map<string, boolean>> {
  // Every row is reached by its primary key from the answer it belongs to, whatever the
  // planner estimates: a plan is kept while its tables grow, made on guesses on the embedded
  // database until its tables are first analyzed, and a join it reorders (or an index that
  // also holds the id, with the status as a filter) would scan a whole table or index on each
  // write. So each row is looked up and locked one answer at a time, in id order (a lateral
  // subquery with a lock and an offset is never merged into a join, nor given the filters
  // outside it), and each update is bounded by the primary keys of the rows the statement
  // already holds (a hash join of those rows with the table would scan all of it).
  const result = await db.execute(sql`
    with v as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(attempt_id text, delivery_id text, account_id text, ok boolean,
        n int, response_status int, response_body text, duration_ms int, error text, next timestamptz, last_error text, claims int)
    ),
    current as (
      select v.*, d.webhook_id, a.status as attempt_status
      from (select * from v order by delivery_id) v
      cross join lateral (
        select d.webhook_id, d.status from ${webhookDeliveries} d where d.id = v.delivery_id and d.account_id = v.account_id for update of d offset 0
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
  return checked;
}

/** A delivery with its endpoint, the delivery row locked (it serialises attempts of one delivery). */
export async function lockDeliveryWithWebhook(tx: Executor, deliveryId: string) {
  const [row] = await tx
    .select({ delivery: webhookDeliveries, webhook: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, and(eq(webhooks.id, webhookDeliveries.webhookId), eq(webhooks.accountId, webhookDeliveries.accountId)))
    .where(eq(webhookDeliveries.id, deliveryId))
    .for("update", { of: webhookDeliveries });
  return row;
}

/** The highest attempt number a delivery has had (0 for none). */
export async function highestAttempt(tx: Executor, { accountId, deliveryId }: { accountId: string; deliveryId: string }) {
  const [{ highest }] = await tx
    .select({ highest: sql<number>`coalesce(max(${webhookAttempts.attempt}), 0)::int` })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.accountId, accountId), eq(webhookAttempts.deliveryId, deliveryId)));
  return highest;
}

/** Writes attempt N of a delivery as pending, unless a row of that number exists (then undefined). */
export async function insertPendingAttempt(tx: Executor, values: Omit<typeof webhookAttempts.$inferInsert, "status">) {
  const [inserted] = await tx
    .insert(webhookAttempts)
    .values({ ...values, status: "pending" })
    .onConflictDoNothing()
    .returning();
  return inserted as WebhookAttempt | undefined;
}

/** An attempt of the account: by its id, or by its delivery and number. */
export async function findAttempt(tx: Executor, { accountId, ...key }: { accountId: string } & ({ id: string } | { deliveryId: string; attempt: number })) {
  const match = "id" in key ? eq(webhookAttempts.id, key.id) : and(eq(webhookAttempts.deliveryId, key.deliveryId), eq(webhookAttempts.attempt, key.attempt));
  const [row] = await tx.select().from(webhookAttempts).where(and(eq(webhookAttempts.accountId, accountId), match));
  return row as WebhookAttempt | undefined;
}

export async function deleteAttempt(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  await tx.delete(webhookAttempts).where(and(eq(webhookAttempts.accountId, accountId), eq(webhookAttempts.id, id)));
}

export async function updateAttempt(tx: Executor, { accountId, id, pendingOnly = false }: { accountId: string; id: string; pendingOnly?: boolean }, values: PgUpdateSetSource<typeof webhookAttempts>) {
  const [row] = await tx
    .update(webhookAttempts)
    .set(values)
    .where(and(eq(webhookAttempts.accountId, accountId), eq(webhookAttempts.id, id), pendingOnly ? eq(webhookAttempts.status, "pending") : undefined))
    .returning();
  return row as WebhookAttempt | undefined;
}

export async function updateDelivery(tx: Executor, { accountId, id }: { accountId: string; id: string }, values: PgUpdateSetSource<typeof webhookDeliveries>) {
  await tx
    .update(webhookDeliveries)
    .set(values)
    .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.id, id)));
}

/** The attempts a delivery has had so far, kept when an extra attempt fails (never lowered). */
export const attemptsAtLeast = (n: number) => sql`greatest(${webhookDeliveries.attempts}, ${n})`;

export async function updateWebhookRow(tx: Executor, { accountId, id }: { accountId: string; id: string }, values: PgUpdateSetSource<typeof webhooks>) {
  const [row] = await tx
    .update(webhooks)
    .set(values)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)))
    .returning();
  return row as Webhook | undefined;
}

// ---- Endpoints: registration, changes, the verification challenge.

/** How many webhooks an account has, its account row locked (registrations of one account run one at a time). */
export async function countWebhooksLocked(tx: Executor, accountId: string) {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
  const [{ n }] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.accountId, accountId));
  return Number(n);
}

export async function insertWebhook(tx: Executor, values: typeof webhooks.$inferInsert) {
  const [row] = await tx.insert(webhooks).values(values).returning();
  return row;
}

/** Deletes a webhook of the account (its deliveries and log go with it); false when there was none. */
export async function deleteWebhookRow(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const deleted = await tx
    .delete(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)))
    .returning({ id: webhooks.id });
  return deleted.length > 0;
}

/** The account's webhooks, oldest first, a page at a time. */
export function pageOfWebhooks<T>(tx: Executor, { accountId, limit, cursor, present }: { accountId: string; limit: number; cursor?: CursorPosition; present: (row: Webhook) => T }) {
  return keysetPage(tx.select().from(webhooks).$dynamic(), {
    table: webhooks,
    accountId,
    order: "asc",
    limit,
    cursor,
    position: (w) => ({ t: w.createdAt, id: w.id }),
    present,
  });
}

/** Fails the account's verification challenges of a webhook left pending since before `before` (a server stopped mid-way). */
export async function failStaleChallenges(tx: Executor, { accountId, webhookId, before, error }: { accountId: string; webhookId: string; before: Date; error: string }) {
  const ofThisWebhook = and(eq(webhookAttempts.accountId, accountId), eq(webhookAttempts.webhookId, webhookId));
  const stale = and(eq(webhookAttempts.eventType, "webhook.verified"), eq(webhookAttempts.status, "pending"), lt(webhookAttempts.attemptedAt, before));
  await tx.update(webhookAttempts).set({ status: "failed", error }).where(and(ofThisWebhook, stale));
}

export async function insertDelivery(tx: Executor, values: typeof webhookDeliveries.$inferInsert) {
  await tx.insert(webhookDeliveries).values(values);
}

/** Sets a webhook's outcome only while it still points at `url` (a change meanwhile runs its own challenge). */
export async function updateWebhookAtUrl(tx: Executor, { accountId, id, url }: { accountId: string; id: string; url: string }, values: PgUpdateSetSource<typeof webhooks>) {
  const [row] = await tx
    .update(webhooks)
    .set(values)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), eq(webhooks.url, url)))
    .returning();
  return row as Webhook | undefined;
}

// ---- Deliveries, the log and the statistics.

export async function findDelivery(tx: Executor, { accountId, webhookId, id }: { accountId: string; webhookId: string; id: string }) {
  const ofThisWebhook = and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.webhookId, webhookId));
  const [row] = await tx.select().from(webhookDeliveries).where(and(ofThisWebhook, eq(webhookDeliveries.id, id)));
  return row as WebhookDelivery | undefined;
}

/**
 * The attempt log of one webhook, newest first by (attempted_at, id), optionally of one
 * status; served by webhook_attempts_webhook_attempted_idx / _status_idx.
 */
export function listAttempts(
  tx: Executor,
  { accountId, webhookId, status, cursor, limit }: { accountId: string; webhookId: string; status?: WebhookAttempt["status"]; cursor?: CursorPosition; limit: number },
) {
  return tx
    .select()
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.webhookId, webhookId),
        eq(webhookAttempts.accountId, accountId),
        status ? eq(webhookAttempts.status, status) : undefined,
        cursor ? sql`(${webhookAttempts.attemptedAt}, ${webhookAttempts.id}) < (${cursor.t.toISOString()}::timestamptz, ${cursor.id})` : undefined,
      ),
    )
    .orderBy(desc(webhookAttempts.attemptedAt), desc(webhookAttempts.id))
    .limit(limit);
}

/** Counts and durations of a webhook's attempts started since `since`, and its latest success and failure ever. */
export async function attemptStats(tx: Executor, { accountId, webhookId, since }: { accountId: string; webhookId: string; since: Date }) {
  const finished = sql`${webhookAttempts.status} <> 'pending' and ${webhookAttempts.durationMs} is not null`;
  const [row] = await tx
    .select({
      total: sql<number>`count(*)::int`,
      succeeded: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'succeeded'))::int`,
      failed: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'failed'))::int`,
      pending: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'pending'))::int`,
      avg: sql<number | string | null>`round(avg(${webhookAttempts.durationMs}) filter (where ${finished}))`,
      p95: sql<number | string | null>`round((percentile_cont(0.95) within group (order by ${webhookAttempts.durationMs}) filter (where ${finished}))::numeric)`,
      lastSuccess: sql<Date | string | null>`(select max(a.attempted_at) from ${webhookAttempts} a where a.account_id = ${accountId} and a.webhook_id = ${webhookId} and a.status = 'succeeded')`,
      lastFailure: sql<Date | string | null>`(select max(a.attempted_at) from ${webhookAttempts} a where a.account_id = ${accountId} and a.webhook_id = ${webhookId} and a.status = 'failed')`,
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.accountId, accountId), eq(webhookAttempts.webhookId, webhookId), gte(webhookAttempts.attemptedAt, since)));
  return row;
}

/** A webhook's succeeded and failed attempts since `since`, per bucket of `step` seconds (UTC, by start). */
export function attemptsPerBucket(tx: Executor, { accountId, webhookId, since, step }: { accountId: string; webhookId: string; since: Date; step: number }) {
  return tx
    .select({
      bucket: sql<number | string>`(floor(extract(epoch from ${webhookAttempts.attemptedAt}) / ${step}) * ${step})::float8`,
      succeeded: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'succeeded'))::int`,
      failed: sql<number>`(count(*) filter (where ${webhookAttempts.status} = 'failed'))::int`,
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.accountId, accountId), eq(webhookAttempts.webhookId, webhookId), gte(webhookAttempts.attemptedAt, since)))
    .groupBy(sql`1`);
}
