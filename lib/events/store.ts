import { and, asc, eq, gt, isNull, notInArray, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { events, jobs, pushSubscriptions, users, webhookDeliveries, webhooks } from "@/db/schema";
import { JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { DELIVERIES_SOURCE } from "@/lib/jobs/source";

// The reads of live event streams and presence, and the notifications processes send each other.

export async function findEvent(db: Executor, id: string) {
  const [row] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  return row;
}

/** The account's events after `after`, oldest first, but the types never streamed. */
export function selectEventsAfter(db: Executor, { accountId, after, exceptTypes, limit }: { accountId: string; after: string; exceptTypes: string[]; limit: number }) {
  return db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), gt(events.id, after), notInArray(events.type, exceptTypes)))
    .orderBy(asc(events.id))
    .limit(limit);
}

/** A NOTIFY on `channel`, sent when the executor's transaction commits (at once on the pool). */
export async function notify(db: Executor, channel: string, payload: string) {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

export async function findUser(db: Executor, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/**
 * The account's live users with the type of their latest presence event (user.online or
 * user.offline, or null). One lookup per teammate on events_presence_idx, however many presence
 * events piled up.
 */
export function selectLatestPresence(db: Executor, accountId: string) {
  const latest = sql<string | null>`(
    select ${events.type} from ${events}
    where ${events.accountId} = ${accountId}
      and ${events.type} in ('user.online', 'user.offline')
      -- Qualified by hand: inside this subquery a bare "id" would be the event's.
      and (${events.data}->'user'->>'id') = "users"."id"
    order by ${events.id} desc
    limit 1
  )`;
  return db
    .select({ userId: users.id, type: latest })
    .from(users)
    .where(and(eq(users.accountId, accountId), isNull(users.deletedAt)));
}

// The event write path: the event rows and what their fan-out enqueues in the same transaction.

/** The channel on which a streamed event's id is announced when its transaction commits. */
export const EVENTS_CHANNEL = "chorus_events";

/**
 * One statement: the event row and, when `notify`, its announcement to live listeners on commit.
 * Not an async function: the statement is sent at the call (`then`), so a caller in a transaction
 * can send the next statement right behind it without waiting for its answer.
 */
export function insertEvent(tx: Executor, { id, accountId, type, data, at, notify }: { id: string; accountId: string; type: string; data: unknown; at: Date; notify: boolean }): Promise<void> {
  return tx
    .execute(
      sql`
    with recorded as (
      insert into ${events} (id, account_id, type, data, created_at)
      values (${id}, ${accountId}, ${type}, ${JSON.stringify(data)}::jsonb, ${at.toISOString()}::timestamptz)
      returning id
    )
    select ${notify ? sql`pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ id, account_id: accountId })})` : sql`id`} from recorded`,
    )
    .then(() => undefined);
}

/**
 * One statement: several event rows of one account and, for those with a `notify` payload, their
 * announcement on commit (a data-modifying WITH runs to completion whether or not the query reads it).
 */
export async function insertEvents(tx: Executor, { accountId, rows, at }: { accountId: string; rows: { id: string; type: string; data: unknown; notify: string | null }[]; at: Date }) {
  await tx.execute(sql`
    with recorded as (
      insert into ${events} (id, account_id, type, data, created_at)
      select x.id, ${accountId}, x.type, x.data, ${at.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id text, type text, data jsonb)
      returning id
    )
    select pg_notify(${EVENTS_CHANNEL}, x.notify) from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(notify text)
    where x.notify is not null and (select count(*) from recorded) > 0`);
}

type InsertedDelivery = { id: string; webhook_id: string };

/**
 * One statement: a pending delivery row of the event per active webhook of the account
 * subscribed to its type (all but `excludeWebhookId`), its id taken in order from `ids`, and a
 * wake-up of the runner's delivery lane on commit. Returns the rows written.
 */
export async function insertEventDeliveries(
  tx: Executor,
  { accountId, eventId, eventType, payload, ids, at, excludeWebhookId }: { accountId: string; eventId: string; eventType: string; payload: string; ids: string[]; at: string; excludeWebhookId?: string },
) {
  const w = webhooks;
  const result = await tx.execute(sql`
    with targets as (
      select ${w.id} as webhook_id, row_number() over (order by ${w.id}) as n from ${w}
      where ${w.accountId} = ${accountId} and ${w.status} = 'active'
        and (${w.events} @> ${JSON.stringify([eventType])}::jsonb or ${w.events} @> '["*"]'::jsonb)
        and ${w.id} <> ${excludeWebhookId ?? ""}
    ),
    ids as (
      select id, n from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) with ordinality as x(id, n)
    ),
    inserted as (
      insert into ${webhookDeliveries} (id, account_id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
      -- More endpoints than the cap (it is enforced on creation) would still each get a unique id.
      select coalesce(ids.id, 'dlv_' || replace(gen_random_uuid()::text, '-', '')), ${accountId}, t.webhook_id, ${eventId}, ${eventType},
        ${payload}, 'pending', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
      from targets t left join ids on ids.n = t.n
      returning id, webhook_id
    ),
    woken as (select pg_notify(${JOBS_CHANNEL}, ${DELIVERIES_SOURCE}))
    select i.id, i.webhook_id, (select count(*) from woken) as woken from inserted i`);
  return rowsOf<InsertedDelivery>(result);
}

/** `insertEventDeliveries` for several events of one account (`n` orders them), in one statement. */
export async function insertEventsDeliveries(
  tx: Executor,
  { accountId, events: list, ids, at }: { accountId: string; events: { n: number; event_id: string; event_type: string; payload: string }[]; ids: string[]; at: string },
) {
  const w = webhooks;
  const result = await tx.execute(sql`
    with evs as (
      select * from jsonb_to_recordset(${JSON.stringify(list)}::jsonb) as x(n int, event_id text, event_type text, payload text)
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
  return rowsOf<InsertedDelivery>(result);
}

/**
 * One statement: a pending `push.notify` job with this payload, written only when someone in the
 * account has a device subscribed, and a wake-up of its lane on commit.
 */
export async function insertPushJobIfSubscribed(tx: Executor, { accountId, payload, at }: { accountId: string; payload: unknown; at: string }) {
  await tx.execute(sql`
    with inserted as (
      insert into ${jobs} (kind, payload, account_id, status, run_at, attempts, created_at, updated_at)
      select 'push.notify', ${JSON.stringify(payload)}::jsonb, ${accountId}, 'pending', ${at}::timestamptz, 0, ${at}::timestamptz, ${at}::timestamptz
      where exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions.accountId} = ${accountId})
      returning id
    )
    select pg_notify(${JOBS_CHANNEL}, 'push.notify') from inserted`);
}
