// The two-instance cluster of deploy/local-cluster (PostgreSQL, Redis, two instances, Caddy)
// behaves as one. Needs the production build, caddy, redis-server and PostgreSQL's binaries:
// `node --test tests/cluster/` (scripts/test.mjs runs it when they are installed).
import { execFileSync, spawn } from "node:child_process";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";

const root = path.resolve(import.meta.dirname, "../..");
const ports = { pg: 5544, redis: 6390, app1: 3111, app2: 3112, receiver: 3113, https: 8443, http: 8080 };
const instance = (n) => `http://127.0.0.1:${n === 1 ? ports.app1 : ports.app2}`;
// The job runner's lease (lib/jobs/source.ts): a killed instance's claims are due again after it.
const LEASE_MS = 30_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let cluster;
let dir;
let session;
let clusterLog = "";

async function api(base, method, pathname, { token, body } = {}) {
  const res = await fetch(base + pathname, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** An SSE client on one instance: collects the envelopes it receives. */
function openSse(base, token, query = "") {
  const events = [];
  const request = http.get(`${base}/v1/events/stream${query}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
    res.setEncoding("utf8");
    let pending = "";
    res.on("data", (chunk) => {
      pending += chunk;
      let end;
      while ((end = pending.indexOf("\n\n")) !== -1) {
        const data = pending.slice(0, end).split("\n").find((l) => l.startsWith("data: "));
        pending = pending.slice(end + 2);
        if (data) events.push(JSON.parse(data.slice(6)));
      }
    });
    res.on("error", () => undefined);
  });
  request.on("error", () => undefined);
  return { events, close: () => request.destroy() };
}

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A webhook endpoint that answers the challenge and counts deliveries by message text. */
function startReceiver() {
  const byText = new Map();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const json = JSON.parse(raw);
      if (json.type === "webhook.verified") return res.end(String(json.data.challenge));
      const text = json.data?.message?.text;
      if (text) byText.set(text, (byText.get(text) ?? 0) + 1);
      res.end("ok");
    });
  });
  return new Promise((resolve) => server.listen(ports.receiver, "127.0.0.1", () => resolve({ byText, close: () => server.close() })));
}

async function inbound(n, text) {
  const res = await api(instance(n), "POST", "/api/sandbox/inbound", {
    token: session,
    body: { from: `1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`, type: "text", text },
  });
  return res.status;
}

async function inParallel(items, limit, work) {
  const queue = [...items];
  await Promise.all(Array.from({ length: limit }, async () => {
    while (queue.length) await work(queue.shift());
  }));
}

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "chorus-cluster-test-"));
  cluster = spawn(path.join(root, "deploy/local-cluster"), [], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      CLUSTER_DIR: dir,
      CLUSTER_PG_PORT: String(ports.pg),
      CLUSTER_REDIS_PORT: String(ports.redis),
      CLUSTER_APP_PORTS: `${ports.app1} ${ports.app2}`,
      CLUSTER_HTTPS_PORT: String(ports.https),
      CLUSTER_HTTP_PORT: String(ports.http),
      JOBS_POLL_MS: "100",
      WEBHOOK_ALLOW_INSECURE_TARGETS: "true",
      WEBHOOK_RETRY_SCHEDULE: "1,1,1,1",
      WEBHOOK_TIMEOUT_MS: "3000",
      RATE_LIMIT_PER_MINUTE: "100000",
      PRESENCE_GRACE_MS: "1000",
    },
  });
  let url = "";
  cluster.stdout.on("data", (c) => (url += c));
  cluster.stderr.on("data", (c) => (clusterLog += c));
  await until(() => url.includes("https://") || cluster.exitCode !== null, 240_000, "the cluster").catch(() => undefined);
  if (!url.trim().startsWith("https://")) throw new Error(`the cluster did not start:\n${clusterLog}`);
  const email = "owner@example.com";
  const password = "a long enough password 123";
  assert.equal((await api(instance(1), "POST", "/api/setup", { body: { account_name: "Cluster Shop", name: "Owner", email, password } })).status, 201);
  const login = await api(instance(2), "POST", "/v1/auth/login", { body: { email, password } });
  assert.equal(login.status, 200);
  session = login.body.token;
});

after(async () => {
  if (cluster?.pid && cluster.exitCode === null) {
    process.kill(-cluster.pid, "SIGTERM");
    await until(() => cluster.exitCode !== null, 30_000, "the cluster to stop").catch(() => process.kill(-cluster.pid, "SIGKILL"));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the two-instance cluster", () => {
  it("serves HTTPS over HTTP/2 through Caddy", () => {
    const out = execFileSync("curl", ["--http2", "-k", "-sS", "-o", "/dev/null", "-w", "%{http_version} %{http_code}", `https://localhost:${ports.https}/healthz`]);
    assert.equal(out.toString(), "2 200");
  });

  it("delivers an inbound message through instance 1 to a WebSocket and an SSE client on instance 2, and through Caddy", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${ports.app2}/v1/ws`, ["bearer", session]);
    const viaCaddy = new WebSocket(`wss://localhost:${ports.https}/v1/ws`, ["bearer", session], { rejectUnauthorized: false });
    const wsEvents = [];
    const caddyEvents = [];
    ws.on("message", (d) => wsEvents.push(JSON.parse(d.toString())));
    viaCaddy.on("message", (d) => caddyEvents.push(JSON.parse(d.toString())));
    await Promise.all([ws, viaCaddy].map((s) => new Promise((resolve, reject) => (s.on("open", resolve), s.on("error", reject)))));
    const sse = openSse(instance(2), session);
    await sleep(500);
    assert.equal(await inbound(1, "across the cluster"), 201);
    const arrived = (list) => list.some((e) => e.type === "message.received" && e.data.message.text === "across the cluster");
    await until(() => arrived(wsEvents) && arrived(sse.events) && arrived(caddyEvents), 10_000, "the message on instance 2's clients");
    ws.close();
    viaCaddy.close();
    sse.close();
  });

  it("shares rate limits through Redis", async () => {
    const token = await api(instance(1), "POST", "/v1/auth/tokens", {
      token: session,
      body: { name: "limits", permissions: ["conversations:read"], expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z") },
    });
    assert.equal(token.status, 201);
    const remaining = [];
    for (const n of [1, 2, 1, 2]) {
      const res = await api(instance(n), "GET", "/v1/conversations", { token: token.body.token });
      assert.equal(res.status, 200);
      remaining.push(Number(res.headers.get("ratelimit-remaining")));
    }
    assert.deepEqual(remaining, [remaining[0], remaining[0] - 1, remaining[0] - 2, remaining[0] - 3]);
  });

  it("shares presence: a user connected to both instances stays online until the last connection closes", async () => {
    const watcher = openSse(instance(1), session);
    const inbox1 = openSse(instance(1), session, "?presence=1");
    await until(() => watcher.events.some((e) => e.type === "user.online"), 5000, "user.online");
    const inbox2 = openSse(instance(2), session, "?presence=1");
    await sleep(1000);
    inbox1.close();
    await sleep(3000); // three times the grace period
    assert.deepEqual(watcher.events.filter((e) => e.type.startsWith("user.")).map((e) => e.type), ["user.online"]);
    inbox2.close();
    await until(() => watcher.events.some((e) => e.type === "user.offline"), 10_000, "user.offline");
    assert.deepEqual(watcher.events.filter((e) => e.type.startsWith("user.")).map((e) => e.type), ["user.online", "user.offline"]);
    watcher.close();
  });

  it("runs each webhook delivery exactly once across both instances, and loses none when one is killed", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await api(instance(1), "POST", "/v1/webhooks", {
        token: session,
        body: { url: `http://127.0.0.1:${ports.receiver}/hooks`, events: ["message.received"] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      assert.equal(hook.body.status, "active");

      // 200 messages, half through each instance: each delivery arrives exactly once.
      const texts = Array.from({ length: 200 }, (_, i) => `delivery ${i}`);
      await inParallel(texts.map((t, i) => [t, (i % 2) + 1]), 8, async ([text, n]) => assert.equal(await inbound(n, text), 201));
      await until(() => texts.every((t) => receiver.byText.has(t)), 90_000, "200 deliveries");
      await sleep(1500);
      assert.deepEqual(texts.filter((t) => receiver.byText.get(t) !== 1), []);

      // kill -9 of instance 1 while messages arrive through it: every accepted message is
      // delivered (by instance 2, after the dead process's lease runs out).
      const accepted = [];
      const burst = Array.from({ length: 60 }, (_, i) => `after kill ${i}`);
      const pid = Number(readFileSync(path.join(dir, "app-1.pid"), "utf8"));
      let sent = 0;
      await inParallel(burst, 4, async (text) => {
        if (++sent === 20) process.kill(pid, "SIGKILL");
        const status = await inbound(1, text).catch(() => 0);
        if (status === 201) accepted.push(text);
      });
      assert.ok(accepted.length >= 15, `only ${accepted.length} messages accepted before the kill`);
      assert.ok(accepted.length < burst.length, "instance 1 still answered after kill -9");
      await until(() => accepted.every((t) => receiver.byText.has(t)), LEASE_MS + 30_000, "the deliveries of the killed instance");
      // (An attempt in flight at the kill may arrive twice: receivers de-duplicate by event id.)
      // Caddy keeps serving on the instance left.
      const out = execFileSync("curl", ["-k", "-sS", "-o", "/dev/null", "-w", "%{http_code}", `https://localhost:${ports.https}/healthz`]);
      assert.equal(out.toString(), "200");
    } finally {
      receiver.close();
    }
  });
});
