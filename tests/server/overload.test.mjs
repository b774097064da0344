// The embedded database never stalls the server: a real process of scripts/server.mjs on the
// production build, its database busy with one long statement (started by a preloaded signal
// handler, tests/server/support/stall-on-signal.mjs). Run after `next build`:
// `node --test tests/server/`.
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const STALL_SECONDS = 8;
const dataDir = mkdtempSync(path.join(tmpdir(), "chorus-overload-"));
let server;
let base;
let log = "";

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** One request, timed; the body parsed when it is JSON. */
async function timed(method, pathname, body) {
  const started = performance.now();
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json, ms: performance.now() - started };
}

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["--import", path.join(import.meta.dirname, "support/stall-on-signal.mjs"), path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      PGLITE_DIR: dataDir,
      APP_URL: `http://localhost:${port}`,
      AUTH_SECRET: "overload-test-secret-0123456789-abcdefghij",
      STALL_SECONDS: String(STALL_SECONDS),
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  server.stdout.on("data", (chunk) => (log += chunk));
  server.stderr.on("data", (chunk) => (log += chunk));
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 900 || server.exitCode !== null) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Started means migrated and serving: an API call reaches its route (401 without a token).
  for (let i = 0; (await timed("GET", "/v1/conversations")).status !== 401; i++) {
    if (i > 300) throw new Error(`the API did not come up:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

after(() => {
  try {
    process.kill(-server.pid, "SIGKILL");
  } catch {
    // already gone
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a long statement in the embedded database", () => {
  it("leaves /healthz answering at once and turns API and webhook requests away with 503 overloaded and Retry-After", async () => {
    process.kill(server.pid, "SIGUSR2");
    // Past the 2 s the server lets a request wait behind the database.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.match(log, /stall: running/);

    const health = [];
    for (let i = 0; i < 10; i++) {
      const answer = await timed("GET", "/healthz");
      assert.equal(answer.status, 200);
      health.push(answer.ms);
    }
    // With the database on the server's own thread each of these waited for the statement (seconds).
    assert.ok(Math.max(...health) < 1_000, `healthz took ${health.map(Math.round).join(", ")} ms`);

    const api = await timed("GET", "/v1/conversations");
    assert.equal(api.status, 503, api.text);
    assert.equal(api.json.error.code, "overloaded");
    assert.match(api.json.error.message, /retry/i);
    assert.match(api.json.request_id, /^req_/);
    assert.equal(api.headers.get("x-request-id"), api.json.request_id);
    const retryAfter = Number(api.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 30, `Retry-After ${api.headers.get("retry-after")}`);
    assert.ok(api.ms < 1_000, `the 503 took ${Math.round(api.ms)} ms`);

    const write = await timed("POST", "/v1/auth/login", { email: "nobody@example.com", password: "not the password" });
    assert.equal(write.status, 503, write.text);
    assert.equal(write.json.error.code, "overloaded");

    const webhook = await timed("POST", "/api/network/webhook", { object: "whatsapp_business_account", entry: [] });
    assert.equal(webhook.status, 503, webhook.text);
    assert.ok(webhook.headers.get("retry-after"));

    // Once the statement is done, requests are served again.
    await new Promise((r) => setTimeout(r, STALL_SECONDS * 1_000 - 3_000));
    for (let i = 0; ; i++) {
      const again = await timed("GET", "/v1/conversations");
      if (again.status === 401) break;
      assert.equal(again.status, 503, again.text);
      if (i > 50) assert.fail(`still turned away:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.match(log, /stall: done/);
  });
});
