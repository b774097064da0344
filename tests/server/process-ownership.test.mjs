// One owner per data directory, and a server that cannot listen stops: real processes of
// scripts/server.mjs on the production build. Run after `next build`: `node --test tests/server/`.
// Each test starts its own servers on ports the system reports free, with its own data directory.
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const dirs = [];
const started = [];

/** A port no one listens on now: the system picks it, then it is let go. */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A fresh, empty data directory of its own. */
function freshDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "chorus-owner-"));
  dirs.push(dir);
  return dir;
}

/** Starts scripts/server.mjs; collects its output; `exited` resolves with its status. */
function startServer({ port, pgliteDir }) {
  const child = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      NODE_ENV: "production",
      PGLITE_DIR: pgliteDir,
      APP_URL: `http://localhost:${port}`,
      AUTH_SECRET: "ownership-test-secret-0123456789-abcdefghij",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  started.push(child);
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => (output.stdout += chunk));
  child.stderr.on("data", (chunk) => (output.stderr += chunk));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, output, exited };
}

async function waitHealthy(port, server) {
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (server.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server on ${port} did not start:\n${server.output.stdout}\n${server.output.stderr}`);
}

/** Resolves with the exit status, or fails after `ms`. */
const exitWithin = (server, ms) =>
  Promise.race([server.exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${server.output.stdout}\n${server.output.stderr}`)), ms))]);

/** The PID on the lock's first line (its second is the process's start time). */
const lockOwner = (dataDir) => readFileSync(path.join(dataDir, "chorus.lock"), "utf8").split("\n")[0];

const lines = (text) => text.split("\n").filter((line) => line.trim());

after(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("one process per data directory", () => {
  it("a second server on the same PGLITE_DIR exits 1 at once with one line naming the folder and the owner's PID", async () => {
    const dataDir = freshDataDir();
    const [port, otherPort] = [await freePort(), await freePort()];
    const owner = startServer({ port, pgliteDir: dataDir });
    await waitHealthy(port, owner);
    assert.equal(lockOwner(dataDir), String(owner.child.pid));

    const second = startServer({ port: otherPort, pgliteDir: dataDir });
    const { code } = await exitWithin(second, 60_000);
    assert.equal(code, 1);
    const said = lines(second.output.stderr);
    assert.equal(said.length, 1, second.output.stderr);
    assert.ok(said[0].includes(dataDir), said[0]);
    assert.ok(said[0].includes(`process ${owner.child.pid}`), said[0]);
    // The owner goes on serving, its lock untouched.
    assert.ok((await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
    assert.equal(lockOwner(dataDir), String(owner.child.pid));
  });

  it("a server that cannot listen (its port in use) exits 1 with one line", async () => {
    // Another program holds the port.
    const holder = net.createServer();
    await new Promise((resolve, reject) => holder.once("error", reject).listen(0, "127.0.0.1", resolve));
    const { port } = holder.address();
    try {
      const other = startServer({ port, pgliteDir: "memory://" });
      const { code } = await exitWithin(other, 60_000);
      assert.equal(code, 1);
      const said = lines(other.output.stderr);
      assert.equal(said.length, 1, other.output.stderr);
      assert.match(said[0], new RegExp(`port ${port} is already in use`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("takes over the lock of a process that died without releasing it", async () => {
    const dataDir = freshDataDir();
    const [port, otherPort] = [await freePort(), await freePort()];
    const owner = startServer({ port, pgliteDir: dataDir });
    await waitHealthy(port, owner);
    process.kill(-owner.child.pid, "SIGKILL");
    await owner.exited;
    // Killed outright, it left its lock behind.
    assert.ok(existsSync(path.join(dataDir, "chorus.lock")));
    const next = startServer({ port: otherPort, pgliteDir: dataDir });
    await waitHealthy(otherPort, next);
    assert.equal(lockOwner(dataDir), String(next.child.pid));
    // A clean stop releases it.
    process.kill(next.child.pid, "SIGTERM");
    await exitWithin(next, 30_000);
    assert.equal(existsSync(path.join(dataDir, "chorus.lock")), false);
  });
});
