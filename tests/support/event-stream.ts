import { expect } from "vitest";
import * as stream from "@/app/v1/events/stream/route";
import type { EventEnvelope } from "@/lib/events/types";

export type OpenStream = {
  /** The events received, in order. */
  events: EventEnvelope[];
  /** Every frame received (events, comments), as sent. */
  raw: string[];
  /** True once the server ended the stream. */
  ended: () => boolean;
  /** Disconnects, as a client going away does. */
  close: () => void;
  /** Waits until `n` events arrived or `ms` passed; returns the events. */
  waitFor: (n: number, ms?: number) => Promise<EventEnvelope[]>;
  /** Waits until `check` holds or `ms` passed; returns whether it holds. */
  until: (check: () => boolean, ms?: number) => Promise<boolean>;
};

/**
 * Opens GET /v1/events/stream through its route handler and collects the frames it sends;
 * returns once the stream says `: connected` (every event committed after that is sent).
 */
export async function openEventStream(token: string, options: { lastEventId?: string; query?: string } = {}): Promise<OpenStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.lastEventId) headers["last-event-id"] = options.lastEventId;
  // A Request follows the signal it was given only while the Request itself is alive (undici
  // holds its own controller through a WeakRef), so the helper keeps it for the stream's life:
  // otherwise a garbage collection in between would keep `close()` from reaching the server.
  const request = new Request(`http://localhost/v1/events/stream${options.query ?? ""}`, { headers, signal: abort.signal });
  const res = await stream.GET(request, { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: EventEnvelope[] = [];
  const raw: string[] = [];
  let ended = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  let live!: () => void;
  const connected = new Promise<void>((resolve) => (live = resolve));
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let index;
      while ((index = pending.indexOf("\n\n")) >= 0) {
        const block = pending.slice(0, index);
        pending = pending.slice(index + 2);
        raw.push(block);
        if (block === ": connected") live();
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        const id = block.split("\n").find((l) => l.startsWith("id: "));
        if (data) {
          const event = JSON.parse(data.slice(6)) as EventEnvelope;
          expect(id?.slice(4)).toBe(event.id);
          events.push(event);
        }
      }
    }
    ended = true;
    live();
  })();
  await connected;
  const until = async (check: () => boolean, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return check();
  };
  const waitFor = async (n: number, ms = 3000) => {
    await until(() => events.length >= n, ms);
    return events;
  };
  const close = () => {
    abort.abort();
    void request;
  };
  return { events, raw, ended: () => ended, close, waitFor, until };
}
