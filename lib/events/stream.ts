import "server-only";
import { roleAllows } from "@/lib/auth/scopes";
import type { SystemContext } from "@/lib/auth/context";
import { type AuthContext, loadTokenContext } from "@/lib/auth/tokens";
import { invalidField, loggable } from "@/lib/platform/errors";
import { subscribeToEvents, toEnvelope } from "./hub";
import { joinPresence, leavePresence } from "./presence";
import { selectEventsAfter } from "./store";
import type { EventEnvelope } from "./types";
import { canSeeEvent, READ_SCOPE_BY_EVENT_PREFIX, UNSTREAMED_EVENT_TYPES } from "./visibility";

const HEARTBEAT_MS = 15_000;
const REPLAY_PAGE = 500;
/** How many of the ids last sent a connection remembers to drop a duplicate (see followEvents). */
const RECENT_IDS = 1_000;
const EVENT_ID = /^evt_[0-9a-z]{26}$/;

export function parseLastEventId(value: string | null): string | undefined {
  if (!value) return undefined;
  if (!EVENT_ID.test(value)) throw invalidField("Last-Event-ID", "must be an event id (evt_…) received from this stream");
  return value;
}

const frame = (event: EventEnvelope) => `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/** How often an idle stream checks that its token still stands (it ends within 5 s otherwise). */
const RECHECK_MS = 2_000;
let recheckMs: number | undefined;
/** Tests shorten the periodic check. */
export function setStreamRecheckMs(ms: number | undefined) {
  recheckMs = ms;
}

/** The read scopes whose events this token may see now (its scopes within the owner's current role). */
function readableScopes(ctx: AuthContext): Set<string> {
  return new Set([...new Set(Object.values(READ_SCOPE_BY_EVENT_PREFIX))].filter((scope) => ctx.token.scopes.includes(scope) && roleAllows(ctx.user.role, scope)));
}

type EventFeedEnd = "closed" | "revoked" | "scopes_withdrawn";

/**
 * One clock for the idle checks of every open connection of this process: they fall in the same
 * moment, so their reads of the database go in one query (see loadTokenContext) rather than one
 * timer and one round trip per connection.
 */
const rechecks = new Set<() => void>();
let recheckTimer: NodeJS.Timeout | undefined;
function onRecheck(check: () => void): () => void {
  rechecks.add(check);
  if (!recheckTimer) {
    recheckTimer = setInterval(() => rechecks.forEach((each) => each()), recheckMs ?? RECHECK_MS);
    recheckTimer.unref?.();
  }
  return () => {
    rechecks.delete(check);
    if (rechecks.size === 0 && recheckTimer) {
      clearInterval(recheckTimer);
      recheckTimer = undefined;
    }
  };
}

/**
 * The transport-neutral core of a live event connection (the SSE route uses it; a socket
 * transport would too): replays what came after `lastEventId`, then delivers the account's
 * committed events that the token may read. Before each batch of live events, and every
 * couple of seconds while idle, the token is checked again against the database: a revoked
 * or expired token, a deleted user, or a role that no longer allows a scope the connection
 * was reading ends the feed (`onEnd`) — within 5 s, and before any event it may no longer
 * read is handed over. Returns the function that stops it.
 */
async function followEvents({
  ctx: opened,
  lastEventId,
  presence,
  onEvent,
  onEnd,
}: {
  ctx: AuthContext & SystemContext;
  lastEventId?: string;
  presence: boolean;
  onEvent: (event: EventEnvelope) => void;
  onEnd: (why: EventFeedEnd) => void;
}): Promise<() => void> {
  let ctx: AuthContext = opened;
  const openedWith = readableScopes(opened);
  let closed = false;
  let joined = false;
  // Ids sort by creation time, but transactions can commit out of that order, so the live
  // part de-duplicates by id rather than dropping ids lower than the last one sent. A duplicate
  // can only be an event both replayed and buffered while the replay ran, so the most recent
  // ids suffice: a connection open for days keeps a few KB, not every id it ever sent.
  const sent = new Set<string>();
  let buffer: EventEnvelope[] | null = [];
  const queue: EventEnvelope[] = [];
  let pumping: Promise<void> | null = null;

  const send = (event: EventEnvelope) => {
    if (closed || sent.has(event.id) || (lastEventId && event.id <= lastEventId) || !canSeeEvent(ctx, event.type)) return;
    sent.add(event.id);
    if (sent.size > RECENT_IDS) sent.delete(sent.values().next().value!);
    onEvent(event);
  };

  const end = (why: EventFeedEnd) => {
    if (closed) return;
    closed = true;
    stopRechecking();
    unsubscribe();
    if (joined) leavePresence(opened);
    onEnd(why);
  };

  /** The token as it stands now; false (and the feed ended) when it no longer does. */
  const stillAllowed = async (): Promise<boolean> => {
    let fresh: AuthContext;
    try {
      fresh = await loadTokenContext(opened.db, { jti: opened.token.id, userId: opened.user.id, accountId: opened.accountId, via: opened.via, fresh: true });
    } catch (error) {
      if (error instanceof Error && error.name === "ApiError") {
        end("revoked");
        return false;
      }
      // A database hiccup is not a revocation: keep the connection, check again later.
      return !closed;
    }
    // The account came to require two-factor sign-in and this credential has not passed it.
    if (fresh.secondFactor !== "ok") {
      end("revoked");
      return false;
    }
    const now = readableScopes(fresh);
    if ([...openedWith].some((scope) => !now.has(scope))) {
      end("scopes_withdrawn");
      return false;
    }
    ctx = fresh;
    return !closed;
  };

  const pump = () => {
    pumping ??= (async () => {
      while (queue.length && !closed) {
        const batch = queue.splice(0, queue.length);
        if (!(await stillAllowed())) return;
        for (const event of batch) send(event);
      }
    })().finally(() => {
      pumping = null;
      if (queue.length && !closed) pump();
    });
  };

  const unsubscribe = await subscribeToEvents(opened, (event) => {
    if (buffer) buffer.push(event);
    else {
      queue.push(event);
      pump();
    }
  });
  const stopRechecking = onRecheck(() => {
    if (!pumping) void stillAllowed();
  });

  try {
    for (let after = lastEventId; after && !closed; ) {
      const missed = await selectEventsAfter(opened.db, { accountId: opened.accountId, after, exceptTypes: [...UNSTREAMED_EVENT_TYPES], limit: REPLAY_PAGE });
      for (const row of missed) send(toEnvelope(row));
      after = missed.length === REPLAY_PAGE ? missed[missed.length - 1].id : undefined;
    }
    const pending = buffer;
    buffer = null;
    queue.push(...pending.sort((a, b) => (a.id < b.id ? -1 : 1)));
    pump();
    if (presence && !closed) {
      await joinPresence(opened);
      joined = true;
      // Ended while joining: end() had nothing to leave yet.
      if (closed) leavePresence(opened);
    }
  } catch (error) {
    // Nothing half-open is left behind: the client reconnects with its Last-Event-ID.
    end("closed");
    throw error;
  }
  return () => end("closed");
}

/**
 * Server-Sent Events of the account, filtered to what the token may read (never
 * webhook.verified, which goes only to the webhook being verified). With a
 * Last-Event-ID the stream first replays what was missed (ids sort by time), then goes
 * live; events arriving during the replay are buffered and de-duplicated. The comment
 * `: connected` is written once the feed is live: every event committed after it is sent.
 * The stream ends when the token stops being allowed (see `followEvents`).
 */
export function openEventStream({
  ctx,
  lastEventId,
  signal,
  presence,
}: {
  ctx: AuthContext & SystemContext;
  lastEventId?: string;
  signal: AbortSignal;
  presence: boolean;
}): Response {
  const encoder = new TextEncoder();
  let stop: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let open = true;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          // the client went away between two writes
          open = false;
        }
      };
      const close = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      write(`retry: 3000\n\n`);
      heartbeat = setInterval(() => write(`: heartbeat ${new Date().toISOString()}\n\n`), HEARTBEAT_MS);
      try {
        stop = await followEvents({
          ctx,
          lastEventId,
          presence,
          onEvent: (event) => write(frame(event)),
          onEnd: close,
        });
      } catch (error) {
        console.error(`event stream: starting the feed failed: ${loggable(error)}`);
        close();
        return;
      }
      if (!open || signal.aborted) stop();
      else {
        signal.addEventListener("abort", () => stop?.());
        // The feed is live from here: anything committed after this comment is sent.
        write(`: connected\n\n`);
      }
    },
    cancel() {
      open = false;
      clearInterval(heartbeat);
      stop?.();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
