import { loggable } from "@/lib/platform/errors";
import type { Executor } from "@/db";
import { getEnv } from "@/lib/platform/env";
import type { SystemContext } from "@/lib/auth/context";
import type { AuthContext } from "@/lib/auth/tokens";
import { presentUser } from "@/lib/auth/user-identity";
import { listen } from "@/db/listen";
import { recordEvent } from "./record-event";
import { findUser, notify, selectLatestPresence } from "./store";

/** Who comes and goes, with what their presence events are recorded through. */
type Present = Pick<AuthContext, "accountId" | "user"> & SystemContext;

type Presence = { connections: Map<string, number>; offlineTimers: Map<string, NodeJS.Timeout>; graceMs: number | null };

// On globalThis: one count of open connections per process; Next.js bundles each
// route and action separately (and reloads modules in development), so a module-level value would
// exist once per bundle.
const holder = globalThis as unknown as { __chorusPresence?: Presence };
// A reload or a flaky network closes the stream for a moment; only a 30 s absence is "offline".
const presence = (holder.__chorusPresence ??= {
  connections: new Map(),
  offlineTimers: new Map(),
  // Set by tests; otherwise PRESENCE_GRACE_MS, read when first needed.
  graceMs: null,
});

// Several server processes share presence: each tells the others (NOTIFY chorus_presence) how
// many inbox connections it holds per user, on every change and again every 20 s. A process
// announces "offline" only when no other process reported a connection for that user in the
// last minute, so a process killed without a word stops counting after that minute.
const PRESENCE_CHANNEL = "chorus_presence";
const REPEAT_MS = 20_000;
const REMOTE_TTL_MS = 60_000;
type Shared = {
  instance: string;
  /** What the repeated reports go through: the executor sharing was started with (the process's pool). */
  db?: Executor;
  remote: Map<string, Map<string, { count: number; at: number }>>;
  ready?: Promise<void>;
};
// On globalThis, as the counts above: one per process.
const sharedHolder = globalThis as unknown as { __chorusPresenceShared?: Shared };
const shared: Shared = (sharedHolder.__chorusPresenceShared ??= { instance: crypto.randomUUID(), remote: new Map() });

function onRemote(payload: string) {
  let note: { i: string; u: Record<string, number>; hello?: boolean };
  try {
    note = JSON.parse(payload);
  } catch {
    return;
  }
  if (!note || typeof note.i !== "string" || note.i === shared.instance) return;
  // A process that just started asks the others what they hold.
  if (note.hello) return tellAll();
  if (typeof note.u !== "object" || !note.u) return;
  const users = shared.remote.get(note.i) ?? new Map<string, { count: number; at: number }>();
  shared.remote.set(note.i, users);
  for (const [userId, count] of Object.entries(note.u)) {
    if (typeof count === "number" && count > 0) users.set(userId, { count, at: Date.now() });
    else users.delete(userId);
  }
}

/** Connections other processes reported for this user within the last minute. */
function remoteConnections(userId: string): number {
  const fresh = Date.now() - REMOTE_TTL_MS;
  let total = 0;
  for (const users of shared.remote.values()) {
    const entry = users.get(userId);
    if (entry && entry.at >= fresh) total += entry.count;
  }
  return total;
}

async function tellOthers(db: Executor, counts: Record<string, number>) {
  if (!Object.keys(counts).length) return;
  await notify(db, PRESENCE_CHANNEL, JSON.stringify({ i: shared.instance, u: counts }));
}

function tellAll() {
  const db = shared.db;
  if (!db) return;
  // NOTIFY payloads stay under 8,000 bytes: 100 users a message.
  const entries = [...presence.connections.entries()];
  for (let i = 0; i < entries.length; i += 100) {
    tellOthers(db, Object.fromEntries(entries.slice(i, i + 100))).catch(() => undefined);
  }
}

/**
 * Listens to the other processes' presence (the server starts it; the first connection at the
 * latest), reporting this process's counts through `db`.
 */
export function startPresenceSharing(db: Executor): Promise<void> {
  shared.db ??= db;
  shared.ready ??= listen(PRESENCE_CHANNEL, onRemote).then(async () => {
    const repeat = setInterval(tellAll, REPEAT_MS);
    repeat.unref?.();
    await notify(db, PRESENCE_CHANNEL, JSON.stringify({ i: shared.instance, hello: true }));
  });
  return shared.ready;
}

function shareCount(db: Executor, userId: string) {
  tellOthers(db, { [userId]: presence.connections.get(userId) ?? 0 }).catch((error) => console.error(`presence: sharing failed: ${loggable(error)}`));
}

export function setPresenceGraceMs(ms: number) {
  presence.graceMs = ms;
}

// One user's announcements are recorded in the order they happen (online before offline),
// even when a connection closes while its "online" is still being written.
const announcements = new Map<string, Promise<void>>();

function announce(ctx: Present, type: "user.online" | "user.offline"): Promise<void> {
  const previous = announcements.get(ctx.user.id) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => record(ctx, type));
  announcements.set(ctx.user.id, next);
  // The caller handles a failure of `next`; this bookkeeping chain must not become an unhandled rejection.
  const forget = () => {
    if (announcements.get(ctx.user.id) === next) announcements.delete(ctx.user.id);
  };
  next.then(forget, forget);
  return next;
}

async function record(ctx: Present, type: "user.online" | "user.offline") {
  const { db } = ctx;
  const user = await findUser(db, ctx.user.id);
  if (!user) return;
  await db.transaction((tx) => recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type, data: { user: presentUser(user) } }));
}

/** An inbox connection opened: the first one makes the user online. */
export async function joinPresence(ctx: Present) {
  await startPresenceSharing(ctx.db);
  const count = presence.connections.get(ctx.user.id) ?? 0;
  presence.connections.set(ctx.user.id, count + 1);
  if (count > 0) return;
  shareCount(ctx.db, ctx.user.id);
  const pending = presence.offlineTimers.get(ctx.user.id);
  if (pending) {
    clearTimeout(pending);
    presence.offlineTimers.delete(ctx.user.id);
    return;
  }
  // Online already: another process holds a connection of this user.
  if (remoteConnections(ctx.user.id) > 0) return;
  await announce(ctx, "user.online");
}

/** An inbox connection closed: after the last one and a grace period, the user is offline. */
export function leavePresence(ctx: Present) {
  const count = (presence.connections.get(ctx.user.id) ?? 1) - 1;
  if (count > 0) {
    presence.connections.set(ctx.user.id, count);
    return;
  }
  presence.connections.delete(ctx.user.id);
  shareCount(ctx.db, ctx.user.id);
  scheduleOffline(ctx, presence.graceMs ?? getEnv().PRESENCE_GRACE_MS);
}

function scheduleOffline(ctx: Present, delayMs: number, recheck = false) {
  const timer = setTimeout(async () => {
    presence.offlineTimers.delete(ctx.user.id);
    if (presence.connections.get(ctx.user.id)) return;
    // Another process still holds a connection: look again once its report may have aged out.
    if (remoteConnections(ctx.user.id) > 0) return scheduleOffline(ctx, REMOTE_TTL_MS, true);
    try {
      // On a second look the other process may have said "offline" itself meanwhile.
      if (recheck && !(await listOnlineUserIds(ctx)).includes(ctx.user.id)) return;
      await announce(ctx, "user.offline");
    } catch (error) {
      console.error(`presence: recording offline failed: ${loggable(error)}`);
    }
  }, delayMs);
  timer.unref?.();
  presence.offlineTimers.set(ctx.user.id, timer);
}

/** Users of the account whose latest presence event is user.online (shared by every instance). */
export async function listOnlineUserIds(ctx: { accountId: string; db: Executor }): Promise<string[]> {
  const rows = await selectLatestPresence(ctx.db, ctx.accountId);
  return rows.filter((r) => r.type === "user.online").map((r) => r.userId);
}
