import "server-only";
import { loggable } from "@/lib/platform/errors";
import type { Executor } from "@/db";
import type { events } from "@/db/schema";
import { listen } from "@/db/listen";
import { EVENTS_CHANNEL } from "./store";
import { findEvent } from "./store";
import type { EventEnvelope, EventType } from "./types";

type Subscriber = { accountId: string; deliver: (event: EventEnvelope) => void };

/**
 * `db`: what the hub reads each notified event through, the executor of the stream that started
 * it (every stream holds the process's pool): the hub is the process's, not one stream's.
 */
type Hub = { subscribers: Set<Subscriber>; ready?: Promise<void>; unlisten?: () => Promise<void>; chain: Promise<void>; db?: Executor };

// On globalThis: one LISTEN connection and one set of live subscribers per process; Next.js bundles
// each route and action separately (and reloads modules in development), so a module-level value
// would exist once per bundle.
const holder = globalThis as unknown as { __chorusEventHub?: Hub };
const hub = (holder.__chorusEventHub ??= { subscribers: new Set(), chain: Promise.resolve() });

export function toEnvelope(row: typeof events.$inferSelect): EventEnvelope {
  return { id: row.id, type: row.type as EventType, created_at: row.createdAt.toISOString(), data: row.data };
}

async function onNotify(payload: string) {
  let note: { id: string; account_id: string };
  try {
    note = JSON.parse(payload);
  } catch {
    return;
  }
  const interested = [...hub.subscribers].filter((s) => s.accountId === note.account_id);
  if (!interested.length) return;
  // One read per event, shared by every open stream of the account on this instance.
  const row = await findEvent(hub.db!, note.id);
  if (!row || row.accountId !== note.account_id) return;
  const envelope = toEnvelope(row);
  for (const subscriber of interested) subscriber.deliver(envelope);
}

/**
 * Subscribes to the committed events of one account, from every server process (the
 * database's NOTIFY carries them). The first subscriber starts the hub, which reads the events
 * through its `db`. Returns the unsubscribe function.
 */
export async function subscribeToEvents({ db, accountId }: { db: Executor; accountId: string }, deliver: (event: EventEnvelope) => void) {
  hub.db ??= db;
  hub.ready ??= listen(EVENTS_CHANNEL, (payload) => {
    // Notifications arrive in commit order; reading each event in turn keeps that order.
    hub.chain = hub.chain.then(() => onNotify(payload)).catch((error) => console.error(`event hub: delivering an event failed: ${loggable(error)}`));
  }).then((unlisten) => {
    hub.unlisten = unlisten;
  });
  await hub.ready;
  const subscriber: Subscriber = { accountId, deliver };
  hub.subscribers.add(subscriber);
  return () => {
    hub.subscribers.delete(subscriber);
  };
}
