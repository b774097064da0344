// The embedded server under more writes than it can take, and at rest:
// one production server (scripts/server.mjs, the embedded database on disk in a worker thread).
//
// overload-200: autocannon with 200 connections sending messages (POST /v1/messages) while
// /healthz is asked ten times a second on a connection of its own. Goals: /healthz p99 under
// 200 ms, no request waits more than 5 s, every answer 2xx, 429 or 503 (503 `overloaded` is the
// server shedding load).
// idle-rss: the resident memory of a server started on an empty database, once it has settled.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import { type Bench, type BenchOptions, log, percentile, round } from "./support";
import { serverNodeFlags } from "../scripts/server-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const admin = { account_name: "Bench Overload", name: "Bench Admin", email: "bench-overload@example.com", password: "bench-password-123" };
const CUSTOMER = "15551230001";

const GOAL_HEALTHZ_P99_MS = 200;
const GOAL_MAX_WAIT_MS = 5_000;
const GOAL_IDLE_RSS_MIB = 400;

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

type Server = { child: ChildProcess; base: string; stop: () => void };

/** scripts/server.mjs on the production build (built first if there is none), on a fresh data folder. */
async function startServer(): Promise<Server> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    log("building the app…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  // BENCH_OVERLOAD_PORT pins the port (a shared machine gives each user a range); any free one otherwise.
  const port = process.env.BENCH_OVERLOAD_PORT ? Number(process.env.BENCH_OVERLOAD_PORT) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "chorus-bench-overload-"));
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, PORT: String(port), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PGLITE_DIR: dataDir, APP_URL: base },
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 1_200; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) {
      // Serving the API too: migrated and started.
      for (let j = 0; j < 600; j++) {
        if ((await fetch(`${base}/v1/auth/verify`).then((r) => r.status, () => 0)) === 401) return { child, base, stop };
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error("the server did not start");
}

const post = (url: string, body: unknown, token?: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

/**
 * /healthz every 100 ms on its own keep-alive connection until stopped: each answer's time. The
 * probe runs in a thread of its own: autocannon's 200 connections keep this thread's event loop
 * busy, and a probe waiting behind them would time the benchmark, not the server.
 */
const PROBE_SOURCE = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
let failures = 0;
let stopped = false;
parentPort.once("message", () => (stopped = true));
const once = () =>
  new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(workerData.base + "/healthz", { agent, timeout: 10000 }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode === 200) times.push(performance.now() - started);
        else failures++;
        resolve();
      });
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => {
      failures++;
      times.push(performance.now() - started);
      resolve();
    });
  });
(async () => {
  while (!stopped) {
    const started = performance.now();
    await once();
    await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - started))));
  }
  agent.destroy();
  parentPort.postMessage({ times, failures });
})();
`;

function probeHealth(base: string) {
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { base } });
  const done = new Promise<{ times: number[]; failures: number }>((resolve, reject) => worker.once("message", resolve).once("error", reject));
  // How late this thread's own timers ran meanwhile (what a probe here would have added).
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  return {
    stop: async () => {
      lag.disable();
      worker.postMessage("stop");
      const result = await done;
      await worker.terminate();
      return { ...result, benchLoopDelayP99Ms: lag.percentile(99) / 1e6 };
    },
  };
}

/** Resident memory of a process (Linux: VmRSS in /proc), in MiB. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return round(kib / 1024, 1);
}

export const overloadBench: Bench = {
  name: "overload-200",
  description: "autocannon, 200 connections of POST /v1/messages against one embedded server, /healthz probed meanwhile",
  async run({ smoke }: BenchOptions) {
    const connections = smoke ? 20 : 200;
    const seconds = smoke ? 3 : 30;
    const server = await startServer();
    try {
      const setup = await post(`${server.base}/api/setup`, admin);
      if (!setup.ok) throw new Error(`setup answered ${setup.status}`);
      const login = await post(`${server.base}/v1/auth/login`, { email: admin.email, password: admin.password });
      const { token } = (await login.json()) as { token: string };
      // The customer writes first: replies in text are then within the customer-service window.
      const inbound = await post(`${server.base}/api/sandbox/inbound`, { from: CUSTOMER, name: "Ana", type: "text", text: "hola" }, token);
      if (inbound.status !== 201) throw new Error(`sandbox inbound answered ${inbound.status}`);
      const message = JSON.stringify({ to: CUSTOMER, type: "text", text: "Your order is on its way." });
      const first = await post(`${server.base}/v1/messages`, JSON.parse(message), token);
      if (first.status !== 201 && first.status !== 202) throw new Error(`POST /v1/messages answered ${first.status}: ${await first.text()}`);

      log(`  ${connections} connections for ${seconds} s…`);
      const probe = probeHealth(server.base);
      const result = await autocannon({
        url: `${server.base}/v1/messages`,
        method: "POST",
        connections,
        duration: seconds,
        // A request unanswered after 10 s counts as a timeout (the goal is at most 5 s).
        timeout: 10,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: message,
      });
      const health = await probe.stop();
      const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count: number }).count]));
      const unexpected = Object.entries(statuses)
        .filter(([code]) => !(code.startsWith("2") || code === "429" || code === "503"))
        .reduce((sum, [, count]) => sum + count, 0);
      const healthP99 = health.times.length ? round(percentile(health.times, 99), 1) : Infinity;
      const healthMax = health.times.length ? round(Math.max(...health.times), 1) : Infinity;
      const maxWait = result.latency.max;
      const failed = result.errors + result.timeouts + unexpected;
      const pass = healthP99 < GOAL_HEALTHZ_P99_MS && maxWait <= GOAL_MAX_WAIT_MS && failed === 0 && health.failures === 0;
      log(`  statuses ${JSON.stringify(statuses)}, /healthz p99 ${healthP99} ms, slowest request ${maxWait} ms`);
      return {
        name: "overload-200",
        connections,
        seconds,
        requests: result.requests.total,
        statuses,
        errors: result.errors,
        timeouts: result.timeouts,
        unexpected_statuses: unexpected,
        latency_p50_ms: result.latency.p50,
        latency_p99_ms: result.latency.p99,
        latency_max_ms: maxWait,
        healthz_samples: health.times.length,
        healthz_failures: health.failures,
        healthz_p99_ms: healthP99,
        healthz_max_ms: healthMax,
        bench_loop_delay_p99_ms: round(health.benchLoopDelayP99Ms, 1),
        goal: `healthz_p99_ms < ${GOAL_HEALTHZ_P99_MS} and latency_max_ms <= ${GOAL_MAX_WAIT_MS} and every answer 2xx, 429 or 503 (no errors, no timeouts)`,
        pass,
      };
    } finally {
      server.stop();
    }
  },
};

export const idleRssBench: Bench = {
  name: "idle-rss",
  description: "resident memory of one embedded server started on an empty database, once settled",
  async run({ smoke }: BenchOptions) {
    const server = await startServer();
    try {
      // One API call (routes loaded), then rest.
      await fetch(`${server.base}/v1/conversations`);
      const settleMs = smoke ? 2_000 : 15_000;
      await new Promise((r) => setTimeout(r, settleMs));
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        samples.push(rssMiB(server.child.pid!));
        await new Promise((r) => setTimeout(r, 200));
      }
      const rss = Math.max(...samples);
      log(`  resident memory ${rss} MiB`);
      return {
        name: "idle-rss",
        settle_s: settleMs / 1000,
        rss_mib: rss,
        goal: `rss_mib <= ${GOAL_IDLE_RSS_MIB}`,
        pass: rss <= GOAL_IDLE_RSS_MIB,
      };
    } finally {
      server.stop();
    }
  },
};
