import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = {
  /** Receiver clock (ms since epoch) when the request body had fully arrived. */
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The raw body exactly as received. */
  raw: string;
  json: any;
};

export type Reply = { status?: number; body?: string; headers?: Record<string, string>; delayMs?: number; hang?: boolean };
export type Responder = (request: ReceivedRequest, index: number) => Reply | Promise<Reply>;

export type WebhookReceiver = {
  url: string;
  port: number;
  /** Every request, verification challenges included. */
  requests: ReceivedRequest[];
  /** Requests that are not the verification challenge. */
  deliveries: () => ReceivedRequest[];
  /** Replaces how event deliveries are answered (challenges keep being answered correctly unless `challenge` is set). */
  respond: (responder: Responder) => void;
  /** Replaces how challenges are answered. */
  challenge: (responder: Responder) => void;
  /** Resolves when at least `count` deliveries (not challenges) have arrived. */
  waitForDeliveries: (count: number, timeoutMs?: number) => Promise<ReceivedRequest[]>;
  /** Answers every request held by `hang` (or none). */
  release: () => void;
  close: () => Promise<void>;
};

const isChallenge = (r: ReceivedRequest) => r.json?.type === "webhook.verified";

/** A real HTTP endpoint on 127.0.0.1 that records what it receives, written from the documented webhook contract alone. */
export async function startReceiver({ path = "/hooks" }: { path?: string } = {}): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const held = new Set<ServerResponse>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let deliveryResponder: Responder = () => ({ status: 200, body: "ok" });
  let challengeResponder: Responder = (r) => ({ status: 200, body: String(r.json?.data?.challenge ?? "") });

  const deliveries = () => requests.filter((r) => !isChallenge(r));
  const notify = () => {
    const n = deliveries().length;
    for (const w of [...waiters]) {
      if (n >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    const request: ReceivedRequest = { at: Date.now(), method: req.method ?? "", path: req.url ?? "", headers, raw, json };
    requests.push(request);
    const challenge = isChallenge(request);
    const index = challenge ? 0 : deliveries().length - 1;
    if (!challenge) notify();
    const reply = await (challenge ? challengeResponder : deliveryResponder)(request, index);
    if (reply.hang) {
      held.add(res);
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status ?? 200, { "Content-Type": "text/plain", ...reply.headers });
    res.end(reply.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    deliveries,
    respond: (responder) => {
      deliveryResponder = responder;
    },
    challenge: (responder) => {
      challengeResponder = responder;
    },
    waitForDeliveries: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        if (deliveries().length >= count) return resolve(deliveries());
        const timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${count} deliveries, got ${deliveries().length}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(deliveries());
          },
        });
      }),
    release: () => {
      for (const res of held) {
        if (!res.destroyed) {
          res.writeHead(200);
          res.end("ok");
        }
      }
      held.clear();
    },
    close: async () => {
      for (const res of held) res.destroy();
      held.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
