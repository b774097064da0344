// Slow or broken clients against a real server (scripts/server.mjs on the production build), with
// raw sockets: a slowloris trickling header lines and a body shorter than its Content-Length are
// dropped after their deadlines, and meanwhile the server answers everybody else.
// Run after `next build`: `node --test tests/server/` (SLOW_TEST_PORT picks the port).
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { connect } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const port = Number(process.env.SLOW_TEST_PORT ?? 3112);
const base = `http://127.0.0.1:${port}`;
// Short deadlines so the test is quick; the defaults are 10 s and 120 s.
const HEADERS_TIMEOUT_MS = 1_500;
const REQUEST_TIMEOUT_MS = 3_000;
let server;

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
      AUTH_SECRET: "slow-clients-test-secret-0123456789-abcdefghij",
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
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

/** Opens a raw connection; resolves with what the server sent and when it closed the connection. */
function rawClient() {
  const socket = connect(port, "127.0.0.1");
  const opened = performance.now();
  let received = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk) => (received += chunk));
  socket.on("error", () => undefined);
  const closed = new Promise((resolve) => socket.on("close", () => resolve({ received, afterMs: performance.now() - opened })));
  return { socket, closed };
}

const within = (promise, ms, what) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} still open after ${ms} ms`)), ms))]);

describe("slow or broken clients", () => {
  it("drops a slowloris whose headers never end, after the headers deadline, and keeps answering others", async () => {
    const { socket, closed } = rawClient();
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    // One more header line every 200 ms, never the blank line that ends them.
    let n = 0;
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: a\r\n`), 200);
    try {
      const healthy = await fetch(`${base}/healthz`);
      assert.equal(healthy.status, 200);
      const { received, afterMs } = await within(closed, HEADERS_TIMEOUT_MS + 4_000, "the slowloris connection");
      assert.ok(afterMs >= HEADERS_TIMEOUT_MS - 100, `closed too early (${afterMs} ms)`);
      assert.match(received, /^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it("drops a request whose body is shorter than its Content-Length, after the request deadline", async () => {
    const { socket, closed } = rawClient();
    socket.write(
      `POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":"a@example.com",`,
    );
    try {
      const healthy = await fetch(`${base}/healthz`);
      assert.equal(healthy.status, 200);
      const { received, afterMs } = await within(closed, REQUEST_TIMEOUT_MS + 4_000, "the short-body connection");
      assert.ok(afterMs >= REQUEST_TIMEOUT_MS - 100, `closed too early (${afterMs} ms)`);
      assert.match(received, /^HTTP\/1\.1 408 /);
      assert.match(received, /"code":"request_timeout"/);
    } finally {
      socket.destroy();
    }
    // The server is unharmed.
    const after = await fetch(`${base}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(after.status, 400);
  });

  it("lets twenty clients trickling request bodies to the API take no share of the server", async () => {
    const post = (pathname, body, token) =>
      fetch(`${base}${pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const admin = { account_name: "Slow Bodies", name: "Slow Admin", email: "slow-bodies@example.com", password: "slow-bodies-password-1" };
    assert.equal((await post("/api/setup", admin)).status, 201);
    const login = await post("/v1/auth/login", { email: admin.email, password: admin.password });
    assert.equal(login.status, 200);
    const { token } = await login.json();

    // Headers and the start of a body, then nothing: each waits for the rest of its Content-Length.
    const slow = Array.from({ length: 20 }, () => {
      const client = rawClient();
      client.socket.write(
        `POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"to":"1555`,
      );
      return client;
    });
    try {
      // Long enough for the server's estimate of its own throughput to notice nothing finishing.
      await new Promise((r) => setTimeout(r, 1_200));
      const health = await fetch(`${base}/healthz`);
      assert.equal(health.status, 200);
      const list = await fetch(`${base}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(list.status, 200, await list.text());
      const wrongPassword = await post("/v1/auth/login", { email: admin.email, password: "not-the-password-1" });
      assert.equal(wrongPassword.status, 401, await wrongPassword.text());
      // Each trickling client is cut by the request deadline with a 408.
      for (const { closed } of slow) {
        const { received } = await within(closed, REQUEST_TIMEOUT_MS + 4_000, "a slow-body connection");
        assert.match(received, /^HTTP\/1\.1 408 /);
      }
    } finally {
      for (const { socket } of slow) socket.destroy();
    }
  });

  it("closes an idle keep-alive connection after 5 s", async () => {
    const { socket, closed } = rawClient();
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    try {
      const { received, afterMs } = await within(closed, 9_000, "the idle keep-alive connection");
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.ok(afterMs >= 4_500, `closed too early (${afterMs} ms)`);
    } finally {
      socket.destroy();
    }
  });
});
