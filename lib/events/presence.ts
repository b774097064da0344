import { loggable } from "@/lib/errors";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { events, users } from "@/db/schema";
import type { AuthContext } from "@/lib/auth/tokens";
import { presentUser } from "@/lib/users/schemas";
import { recordEvent } from "./record-event";

type Presence = { connections: Map<string, number>; offlineTimers: Map<string, NodeJS.Timeout>; graceMs: number };

const holder = globalThis as unknown as { __chorusPresence?: Presence };
// A reload or a flaky network closes the stream for a moment; only a 30 s absence is "offline".
const presence = (holder.__chorusPresence ??= { connections: new Map(), offlineTimers: new Map(), graceMs: 30_000 });

export function setPresenceGraceMs(ms: number) {
  presence.graceMs = ms;
}

// One user's announcements are recorded in the order they happen (online before offline),
// even when a connection closes while its "online" is still being written.
const announcements = new Map<string, Promise<void>>();

function announce(ctx: AuthContext, type: "user.online" | "user.offline"): Promise<void> {
  const previous = announcements.get(ctx.user.id) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => record(ctx, type));
  announcements.set(ctx.user.id, next);
  void next.finally(() => {
    if (announcements.get(ctx.user.id) === next) announcements.delete(ctx.user.id);
  });
  return next;
}

async function record(ctx: AuthContext, type: "user.online" | "user.offline") {
  const db = getDb();
  const [user] = await db.select().from(users).where(eq(users.id, ctx.user.id)).limit(1);
  if (!user) return;
  await db.transaction((tx) => recordEvent(tx, { accountId: ctx.accountId, type, data: { user: presentUser(user) } }));
}

/** An inbox connection opened: the first one makes the user online. */
export async function joinPresence(ctx: AuthContext) {
  const count = presence.connections.get(ctx.user.id) ?? 0;
  presence.connections.set(ctx.user.id, count + 1);
  if (count > 0) return;
  const pending = presence.offlineTimers.get(ctx.user.id);
  if (pending) {
    clearTimeout(pending);
    presence.offlineTimers.delete(ctx.user.id);
    return;
  }
  await announce(ctx, "user.online");
}

/** An inbox connection closed: after the last one and a grace period, the user is offline. */
export function leavePresence(ctx: AuthContext) {
  const count = (presence.connections.get(ctx.user.id) ?? 1) - 1;
  if (count > 0) {
    presence.connections.set(ctx.user.id, count);
    return;
  }
  presence.connections.delete(ctx.user.id);
  const timer = setTimeout(() => {
    presence.offlineTimers.delete(ctx.user.id);
    if (presence.connections.get(ctx.user.id)) return;
    announce(ctx, "user.offline").catch((error) => console.error(`presence: recording offline failed: ${loggable(error)}`));
  }, presence.graceMs);
  timer.unref?.();
  presence.offlineTimers.set(ctx.user.id, timer);
}

/**
 * Users of the account whose latest presence event is user.online (shared by every instance).
 * One lookup per teammate on events_presence_idx, however many presence events piled up.
 */
export async function listOnlineUserIds(accountId: string): Promise<string[]> {
  const latest = sql<string | null>`(
    select ${events.type} from ${events}
    where ${events.accountId} = ${accountId}
      and ${events.type} in ('user.online', 'user.offline')
      -- Qualified by hand: inside this subquery a bare "id" would be the event's.
      and (${events.data}->'user'->>'id') = "users"."id"
    order by ${events.id} desc
    limit 1
  )`;
  const rows = await getDb()
    .select({ userId: users.id, type: latest })
    .from(users)
    .where(and(eq(users.accountId, accountId), isNull(users.deletedAt)));
  return rows.filter((r) => r.type === "user.online").map((r) => r.userId);
}
