// GET /v1/ws against a real server (scripts/server.mjs on the production build).
// Run after `next build`: `node --test tests/server/` (WS_TEST_PORT picks the port).
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";

const root = path.resolve(import.meta.dirname, "../..");
const port = Number(process.env.WS_TEST_PORT ?? 3110);
const base = `http://127.0.0.1:${port}`;
const wsBase = `ws://127.0.0.1:${port}/v1/ws`;
let server;
let session;
const inMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");

async function api(method, pathname, { token, body } = {}) {
  const res = await fetch(base + pathname, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Opens a socket and collects its messages; resolves once open (or closed). */
function connect(url, protocols) {
  const ws = new WebSocket(url, protocols);
  const messages = [];
  const waiters = [];
  const closed = new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on("message", (data) => {
    const message = JSON.parse(data.toString());
    messages.push(message);
    for (const waiter of [...waiters]) waiter();
  });
  ws.on("error", () => undefined);
  const next = (predicate, timeoutMs = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = messages.find(predicate);
        if (!found) return false;
        waiters.splice(waiters.indexOf(check), 1);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(messages)}`)), timeoutMs);
      waiters.push(check);
      check();
    });
  return { ws, messages, next, closed };
}

before(async () => {
  server = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      PGLITE_DIR: "memory://",
      APP_URL: `http://localhost:${port}`,
      AUTH_SECRET: "websocket-test-secret-0123456789-abcdefghij",
      WS_PING_MS: "700",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  let log = "";
  server.stdout.on("data", (chunk) => (log += chunk));
  server.stderr.on("data", (chunk) => (log += chunk));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600 || server.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const email = "owner@example.com";
  const password = "a long enough password 123";
  const setup = await api("POST", "/api/setup", { body: { account_name: "Socket Shop", name: "Owner", email, password } });
  assert.equal(setup.status, 201, JSON.stringify(setup.body));
  const login = await api("POST", "/v1/auth/login", { body: { email, password } });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  session = login.body.token;
});

after(() => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** Established TCP connections whose local end is the server's port (Linux: /proc/net/tcp and tcp6). */
function serverSideConnections() {
  const portHex = port.toString(16).toUpperCase().padStart(4, "0");
  let count = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local?.endsWith(`:${portHex}`) && state === "01") count++;
    }
  }
  return count;
}

describe("GET /v1/ws", () => {
  it("answers the bearer subprotocol and delivers an inbound message as the SSE envelope", async () => {
    const socket = connect(wsBase, ["bearer", session]);
    await new Promise((resolve) => socket.ws.on("open", resolve));
    assert.equal(socket.ws.protocol, "bearer");
    await new Promise((r) => setTimeout(r, 300));
    const sent = await api("POST", "/api/sandbox/inbound", { token: session, body: { from: "15551230001", name: "Ana", type: "text", text: "hola por socket" } });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const event = await socket.next((m) => m.type === "message.received");
    assert.match(event.id, /^evt_/);
    assert.equal(event.data.message.text, "hola por socket");
    socket.ws.close();
  });

  it("takes ?access_token=, resumes from last_event_id and sends a ping", async () => {
    const socket = connect(`${wsBase}?access_token=${encodeURIComponent(session)}&last_event_id=evt_00000000000000000000000000`);
    const replayed = await socket.next((m) => m.type === "message.received");
    assert.equal(replayed.data.message.text, "hola por socket");
    await socket.next((m) => m.type === "ping");
    socket.ws.close();
  });

  it("sends only the events the token's scopes allow", async () => {
    const created = await api("POST", "/v1/auth/tokens", { token: session, body: { name: "users only", permissions: ["users:read"], expires_at: inMonth() } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const socket = connect(`${wsBase}?access_token=${created.body.token}&last_event_id=evt_00000000000000000000000000`);
    await socket.next((m) => m.type === "ping");
    assert.deepEqual(
      socket.messages.filter((m) => m.type.startsWith("message.") || m.type.startsWith("conversation.")),
      [],
    );
    socket.ws.close();
  });

  it("closes with 4401 on a bad token, a missing token and a revoked token", async () => {
    assert.equal((await connect(wsBase, ["bearer", "not-a-token"]).closed).code, 4401);
    assert.equal((await connect(wsBase).closed).code, 4401);
    const created = await api("POST", "/v1/auth/tokens", { token: session, body: { name: "revoked", permissions: ["messages:read"], expires_at: inMonth() } });
    assert.equal(created.status, 201);
    const revoke = await api("DELETE", `/v1/auth/tokens/${created.body.id}`, { token: session });
    assert.ok(revoke.status < 300, JSON.stringify(revoke.body));
    assert.equal((await connect(`${wsBase}?access_token=${created.body.token}`).closed).code, 4401);
  });

  it("says when it is live: an event emitted right after the upgrade or right after ready is never lost (50 cycles)", async () => {
    for (let cycle = 0; cycle < 50; cycle++) {
      const socket = connect(wsBase, ["bearer", session]);
      await new Promise((resolve, reject) => {
        socket.ws.on("open", resolve);
        socket.ws.on("unexpected-response", () => reject(new Error("upgrade refused")));
      });
      const early = `early ${cycle}`;
      const late = `late ${cycle}`;
      const first = await api("POST", "/api/sandbox/inbound", { token: session, body: { from: "15551230002", name: "Bea", type: "text", text: early } });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      await socket.next((m) => m.type === "ready");
      const second = await api("POST", "/api/sandbox/inbound", { token: session, body: { from: "15551230002", name: "Bea", type: "text", text: late } });
      assert.equal(second.status, 201, JSON.stringify(second.body));
      await socket.next((m) => m.type === "message.received" && m.data.message.text === early, 5_000);
      await socket.next((m) => m.type === "message.received" && m.data.message.text === late, 5_000);
      // Each event once, and `ready` once.
      const texts = socket.messages.filter((m) => m.type === "message.received").map((m) => m.data.message.text);
      assert.equal(texts.filter((t) => t === early).length, 1);
      assert.equal(texts.filter((t) => t === late).length, 1);
      assert.equal(socket.messages.filter((m) => m.type === "ready").length, 1);
      socket.ws.close();
    }
  });

  it("holds one connection on the server per socket: no second stream behind it", async () => {
    await new Promise((r) => setTimeout(r, 300));
    const before = serverSideConnections();
    const sockets = [];
    for (let i = 0; i < 10; i++) sockets.push(connect(wsBase, ["bearer", session]));
    await Promise.all(sockets.map((socket) => socket.next((m) => m.type === "ready")));
    const opened = serverSideConnections() - before;
    for (const socket of sockets) socket.ws.close();
    assert.ok(opened >= 10 && opened < 15, `10 sockets hold ${opened} connections on the server`);
  });

  it("closes with 4400 on a malformed last_event_id", async () => {
    const { code, reason } = await connect(`${wsBase}?access_token=${session}&last_event_id=nope`).closed;
    assert.equal(code, 4400);
    assert.match(reason, /Last-Event-ID/);
  });
});

/** GET /v1/events/stream on the production server: the status, headers and the first frames. */
function openStream(headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/v1/events/stream`, { headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
        if (res.statusCode === 200 && text.includes(": connected")) {
          req.destroy();
          resolve({ status: res.statusCode, headers: res.headers, text });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on("error", reject);
  });
}

describe("GET /v1/events/stream on the production server", () => {
  it("answers with the API's headers, says when it is live, and refuses a missing token with the error body", async () => {
    const live = await openStream({ authorization: `Bearer ${session}`, accept: "text/event-stream", "x-request-id": "stream-check-1" });
    assert.equal(live.status, 200);
    assert.match(live.headers["content-type"], /^text\/event-stream/);
    assert.equal(live.headers["x-request-id"], "stream-check-1");
    assert.equal(live.headers["x-content-type-options"], "nosniff");
    assert.match(live.headers["ratelimit-remaining"], /^\d+$/);
    assert.match(live.text, /^retry: 3000\n\n/);

    const refused = await openStream({ accept: "text/event-stream" });
    assert.equal(refused.status, 401);
    const body = JSON.parse(refused.text);
    assert.equal(body.error.code, "unauthenticated");
    assert.match(body.request_id, /^req_/);
    assert.equal(refused.headers["x-content-type-options"], "nosniff");
  });
});
