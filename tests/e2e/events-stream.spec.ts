import { expect, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { adminApiToken } from "./helpers";

type Envelope = { id: string; type: string; data: Record<string, unknown> };

/** Reads SSE frames from the running server over real HTTP until `count` events arrived. */
async function readEvents(token: string, count: number, { lastEventId, timeoutMs = 10_000 }: { lastEventId?: string; timeoutMs?: number } = {}) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
  if (lastEventId) headers["last-event-id"] = lastEventId;
  const res = await fetch(`${baseURL}/v1/events/stream`, { headers, signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events: Envelope[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const opened = new Promise<void>((resolve) => {
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          if (buffer.includes(": connected")) resolve();
          let index;
          while ((index = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, index);
            buffer = buffer.slice(index + 2);
            const data = block.split("\n").find((line) => line.startsWith("data: "));
            if (data) events.push(JSON.parse(data.slice(6)) as Envelope);
            if (events.length >= count) abort.abort();
          }
        }
      } catch {
        // aborted once enough events arrived, or on timeout
      }
      resolve();
    })();
  });
  await opened;
  return {
    events,
    done: async () => {
      while (!abort.signal.aborted) await new Promise((r) => setTimeout(r, 20));
      clearTimeout(timer);
      return events;
    },
  };
}

test("GET /v1/events/stream over HTTP: live, filtered by scope, resumable with Last-Event-ID", async ({ request }) => {
  const session = await adminApiToken(request);
  const minted = await request.post("/v1/auth/tokens", {
    headers: { authorization: `Bearer ${session}` },
    data: { name: "stream reader", permissions: ["messages:read"], expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  });
  expect(minted.status()).toBe(201);
  const messagesOnly = (await minted.json()).token as string;

  const everything = await readEvents(session, 2);
  const scoped = await readEvents(messagesOnly, 1);
  const inbound = await request.post("/api/sandbox/inbound", {
    headers: { authorization: `Bearer ${session}` },
    data: { from: "447700900777", name: "Stream Customer", type: "text", text: "Testing the live stream" },
  });
  expect(inbound.status()).toBe(201);

  // An automatic answer may follow in the same read; the first two are the customer's.
  const all = await everything.done();
  expect(all.slice(0, 2).map((e) => e.type)).toEqual(["conversation.created", "message.received"]);
  const onlyMessages = await scoped.done();
  expect(onlyMessages[0].id).toBe(all[1].id);
  expect(onlyMessages.every((e) => e.type.startsWith("message."))).toBe(true);

  // Resuming after the first event replays from the second one on (later events, such as an
  // automatic answer, may follow it), and never the first again.
  const resumed = await readEvents(session, 1, { lastEventId: all[0].id });
  const replayed = (await resumed.done()).map((e) => e.id);
  expect(replayed[0]).toBe(all[1].id);
  expect(replayed).not.toContain(all[0].id);
});
