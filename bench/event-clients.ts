import type { ChildProcess } from "node:child_process";
import http from "node:http";
import WebSocket from "ws";
import { ensureBuild, residentBytes, startChorus, stopChorus, waitForHealthz } from "./server-process";
import { type Bench, type BenchOptions, log, percentile, round } from "./support";

const PORT = Number(process.env.BENCH_EVENT_CLIENTS_PORT ?? 3772);
const BASE = `http://localhost:${PORT}`;
const GOAL_P99_MS = 1_000;
const GOAL_BYTES_PER_CONNECTION = 50 * 1024;
const admin = { account_name: "Bench Events", name: "Bench Admin", email: "bench-events@example.com", password: "bench-password-123" };

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

type Client = { received: Map<string, number>; close: () => void };

/** A Server-Sent Events client (GET /v1/events/stream); resolves once the stream says it is live. */
function openSse(token: string, onEvent: (data: string) => void): Promise<Client> {
  return new Promise((resolve, reject) => {
    const received = new Map<string, number>();
    const req = http.get(`${BASE}/v1/events/stream`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`the stream answered ${res.statusCode}`));
      res.setEncoding("utf8");
      let pending = "";
      let live = false;
      res.on("data", (chunk: string) => {
        pending += chunk;
        let end;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          if (!live && frame.startsWith(": connected")) {
            live = true;
            resolve({ received, close: () => req.destroy() });
          }
          const data = frame.split("\n").find((line) => line.startsWith("data: "));
          if (data) {
            onEvent(data.slice(6));
            received.set(JSON.parse(data.slice(6)).id, performance.now());
          }
        }
      });
    });
    req.on("error", reject);
  });
}

/** A WebSocket client (GET /v1/ws, token as subprotocol); resolves once the socket says it is ready. */
function openSocket(token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const received = new Map<string, number>();
    const socket = new WebSocket(`ws://localhost:${PORT}/v1/ws`, ["bearer", token]);
    socket.on("message", (raw) => {
      const message = JSON.parse(String(raw)) as { type?: string; id?: string };
      if (message.type === "ready") resolve({ received, close: () => socket.terminate() });
      else if (message.id) received.set(message.id, performance.now());
    });
    socket.on("error", reject);
    socket.on("close", (code) => reject(new Error(`the socket closed with ${code}`)));
  });
}

/**
 * 500 live event clients, half over Server-Sent Events and half over WebSockets, each with the
 * token of its own (users:read), on the production server: 20 updates of a teammate, each timed from the
 * request that makes it to its arrival at every client; and the server's resident memory per
 * connection. Goals: p99 < 1 s, < 50 KB per connection.
 */
export const eventClientsBench: Bench = {
  name: "event-clients-500",
  description: "500 connected event clients (SSE and WebSocket): event delivery p99 and server memory per connection",
  async run({ smoke }: BenchOptions) {
    const size = smoke ? { clients: 10, events: 3 } : { clients: 500, events: 20 };
    ensureBuild();
    let server: ChildProcess | undefined = startChorus({ port: PORT, env: { PGLITE_DIR: "memory://", RATE_LIMIT_PER_MINUTE: "1000000" } });
    const clients: Client[] = [];
    try {
      await waitForHealthz(BASE, server);
      await json(await fetch(`${BASE}/api/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) }));
      const { token: session } = await json(
        await fetch(`${BASE}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) }),
      );
      const auth = { "content-type": "application/json", authorization: `Bearer ${session}` };
      const users = (await json(await fetch(`${BASE}/v1/users`, { headers: auth }))) as { data: { id: string; email: string }[] };
      const me = users.data.find((u) => u.email === admin.email)!;
      log(`creating ${size.clients} tokens…`);
      const tokens: string[] = [];
      const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
      for (let i = 0; i < size.clients; i++) {
        const created = await json(
          await fetch(`${BASE}/v1/auth/tokens`, { method: "POST", headers: auth, body: JSON.stringify({ name: `agent ${i}`, permissions: ["users:read", "conversations:read", "messages:read"], expires_at: expires }) }),
        );
        tokens.push(created.token);
      }
      // One of each first, so the memory measured below is of the connections and not of code loaded on first use.
      const first = [await openSse(tokens[0], () => {}), await openSocket(tokens[1])];
      first.forEach((client) => client.close());
      await new Promise((r) => setTimeout(r, 1_000));
      const before = residentBytes(server.pid!);
      log(`connecting ${size.clients} clients…`);
      for (let i = 0; i < size.clients; i += 25) {
        clients.push(...(await Promise.all(tokens.slice(i, i + 25).map((token, j) => ((i + j) % 2 === 0 ? openSse(token, () => {}) : openSocket(token))))));
      }
      await new Promise((r) => setTimeout(r, 2_000));
      const after = residentBytes(server.pid!);

      log(`sending ${size.events} events…`);
      const sentAt = new Map<string, number>();
      for (let i = 0; i < size.events; i++) {
        const started = performance.now();
        await json(await fetch(`${BASE}/v1/users/${me.id}`, { method: "PATCH", headers: auth, body: JSON.stringify({ name: `Bench Admin ${i}` }) }));
        sentAt.set(`update ${i}`, started);
        await new Promise((r) => setTimeout(r, 500));
      }
      await new Promise((r) => setTimeout(r, 2_000));
      // Each client's events are the updates in order: the i-th event it saw is the i-th update.
      const latencies: number[] = [];
      let missing = 0;
      for (const client of clients) {
        const arrivals = [...client.received.values()];
        for (let i = 0; i < size.events; i++) {
          const arrived = arrivals[i];
          if (arrived === undefined) missing++;
          else latencies.push(arrived - sentAt.get(`update ${i}`)!);
        }
      }
      const afterEvents = residentBytes(server.pid!);
      const p99 = missing ? Number.POSITIVE_INFINITY : percentile(latencies, 99);
      const perConnection = (after - before) / size.clients;
      return {
        name: this.name,
        clients: size.clients,
        sse: Math.ceil(size.clients / 2),
        websocket: Math.floor(size.clients / 2),
        events: size.events,
        deliveries: latencies.length,
        missing,
        p50_ms: round(percentile(latencies, 50), 1),
        p99_ms: missing ? null : round(p99, 1),
        max_ms: round(Math.max(...latencies), 1),
        server_rss_before_mb: round(before / 2 ** 20, 1),
        server_rss_connected_mb: round(after / 2 ** 20, 1),
        server_rss_after_events_mb: round(afterEvents / 2 ** 20, 1),
        bytes_per_connection: Math.round(perConnection),
        goal: `p99 < ${GOAL_P99_MS} ms, < ${GOAL_BYTES_PER_CONNECTION / 1024} KB per connection`,
        pass: p99 < GOAL_P99_MS && perConnection < GOAL_BYTES_PER_CONNECTION,
      };
    } finally {
      for (const client of clients) client.close();
      if (server) await stopChorus(server);
      server = undefined;
    }
  },
};
