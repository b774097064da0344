import { and, asc, eq, gt, notInArray } from "drizzle-orm";
import { getDb } from "@/db";
import { events } from "@/db/schema";
import type { AuthContext } from "@/lib/auth/tokens";
import { invalidField } from "@/lib/errors";
import { subscribeToEvents, toEnvelope } from "./hub";
import { joinPresence, leavePresence } from "./presence";
import type { EventEnvelope } from "./types";
import { canSeeEvent, UNSTREAMED_EVENT_TYPES } from "./visibility";

const HEARTBEAT_MS = 15_000;
const REPLAY_PAGE = 500;
const EVENT_ID = /^evt_[0-9a-z]{26}$/;

export function parseLastEventId(value: string | null): string | undefined {
  if (!value) return undefined;
  if (!EVENT_ID.test(value)) throw invalidField("Last-Event-ID", "must be an event id (evt_…) received from this stream");
  return value;
}

const frame = (event: EventEnvelope) => `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * Server-Sent Events of the account, filtered to what the token may read (never
 * webhook.verified, which goes only to the webhook being verified). With a
 * Last-Event-ID the stream first replays what was missed (ids sort by time), then goes
 * live; events arriving during the replay are buffered and de-duplicated.
 */
export function openEventStream({
  ctx,
  lastEventId,
  signal,
  presence,
}: {
  ctx: AuthContext;
  lastEventId?: string;
  signal: AbortSignal;
  presence: boolean;
}): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      // Ids sort by creation time, but transactions can commit out of that order, so the live
      // part de-duplicates by id rather than dropping ids lower than the last one sent.
      const sent = new Set<string>();
      let buffer: EventEnvelope[] | null = [];
      const send = (event: EventEnvelope) => {
        if (sent.has(event.id) || (lastEventId && event.id <= lastEventId) || !canSeeEvent(ctx, event.type)) return;
        sent.add(event.id);
        if (sent.size > 10_000) sent.delete(sent.values().next().value!);
        write(frame(event));
      };
      const unsubscribe = await subscribeToEvents(ctx.accountId, (event) => (buffer ? buffer.push(event) : send(event)));
      const heartbeat = setInterval(() => write(`: heartbeat ${new Date().toISOString()}\n\n`), HEARTBEAT_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        if (presence) leavePresence(ctx);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      signal.addEventListener("abort", () => cleanup?.());

      write(`retry: 3000\n: connected\n\n`);
      for (let after = lastEventId; after && !closed; ) {
        const missed = await getDb()
          .select()
          .from(events)
          .where(and(eq(events.accountId, ctx.accountId), gt(events.id, after), notInArray(events.type, [...UNSTREAMED_EVENT_TYPES])))
          .orderBy(asc(events.id))
          .limit(REPLAY_PAGE);
        for (const row of missed) send(toEnvelope(row));
        after = missed.length === REPLAY_PAGE ? missed[missed.length - 1].id : undefined;
      }
      const pending = buffer;
      buffer = null;
      for (const event of pending.sort((a, b) => (a.id < b.id ? -1 : 1))) send(event);
      if (presence) await joinPresence(ctx);
    },
    cancel() {
      cleanup?.();
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
