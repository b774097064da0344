import { and, asc, eq, gt, isNull, notInArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { events, users } from "@/db/schema";

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
