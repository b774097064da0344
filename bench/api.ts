// /v1 overhead on one production server (scripts/server.mjs, what `npm start` runs; PGlite in
// memory): autocannon with 20 connections against GET /api/version, /v1/auth/verify,
// /v1/conversations?limit=50 and /v1/openapi.json, 10 s each in 2 s slices taken in turn; the
// ratios to /api/version are the goals. The baseline is the cheapest route Next.js serves (no
// token, no database), so a ratio is what authentication and the database cost on top of
// Next.js itself. /healthz cannot be it: the server answers that before Next.js routes anything.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { type Bench, type BenchOptions, log, round } from "./support";

const PORT = Number(process.env.BENCH_API_PORT ?? 3116);
const BASE = `http://127.0.0.1:${PORT}`;
const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
const admin = { account_name: "Bench API", name: "Bench Admin", email: "bench-api@example.com", password: "bench-password-123" };

async function startServer(): Promise<ChildProcess> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    log("building the app…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const server = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, PORT: String(PORT), NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", PGLITE_DIR: "memory://", APP_URL: BASE },
  });
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${BASE}/healthz`).then((r) => r.ok, () => false)) return server;
    if (server.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    process.kill(-server.pid!, "SIGKILL");
  } catch {
    // already gone
  }
  throw new Error("the server did not start");
}

async function measure(url: string, token: string | undefined, seconds: number) {
  const result = await autocannon({
    url,
    connections: 20,
    duration: seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const ok = result["2xx"];
  if (ok === 0 || result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return { requests: result.requests.total, seconds: result.duration, latency_p99_ms: result.latency.p99, errors: result.errors + result.timeouts };
}

type Target = { url: string; token?: string };

/**
 * Each target for `seconds` in all, in slices taken in turn (A B C, A B C, …): the goals are
 * ratios between targets, and the machine's speed drifts over a minute, so measuring one
 * target after the other would credit or blame whichever ran in the faster stretch.
 * Requests per second over all its slices; p99 the highest of its slices'.
 */
async function measureInTurn(targets: Target[], seconds: number, slices: number) {
  const totals = targets.map(() => ({ requests: 0, seconds: 0, latency_p99_ms: 0, errors: 0 }));
  for (let slice = 0; slice < slices; slice++) {
    for (const [i, target] of targets.entries()) {
      const part = await measure(`${BASE}${target.url}`, target.token, seconds / slices);
      totals[i].requests += part.requests;
      totals[i].seconds += part.seconds;
      totals[i].latency_p99_ms = Math.max(totals[i].latency_p99_ms, part.latency_p99_ms);
      totals[i].errors += part.errors;
    }
  }
  return totals.map((t) => ({ req_per_s: round(t.requests / t.seconds, 0), latency_p99_ms: t.latency_p99_ms, errors: t.errors }));
}

export const apiBench: Bench = {
  name: "api-overhead",
  description: "autocannon, 20 connections, one production server: /v1/auth/verify and /v1/conversations?limit=50 against /api/version (Next.js, no token, no database)",
  async run({ smoke }: BenchOptions) {
    const seconds = smoke ? 1 : 10;
    const server = await startServer();
    try {
      const setup = await fetch(`${BASE}/api/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) });
      if (!setup.ok) throw new Error(`setup answered ${setup.status}`);
      const login = await fetch(`${BASE}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
      const { token } = (await login.json()) as { token: string };
      const first = await fetch(`${BASE}/v1/openapi.json`);
      const etag = first.headers.get("etag");
      const notModified = etag ? (await fetch(`${BASE}/v1/openapi.json`, { headers: { "if-none-match": etag } })).status : null;
      // Warm-up: compiled routes loaded (one request each first: loading a route's code can take
      // longer than a one-second slice on a busy machine), caches filled.
      for (const url of ["/api/version", "/v1/auth/verify", "/v1/conversations?limit=50", "/v1/openapi.json"]) {
        await (await fetch(`${BASE}${url}`, { headers: { authorization: `Bearer ${token}` } })).text();
        await measure(`${BASE}${url}`, token, 1);
      }
      const [baseline, verify, conversations, openapi] = await measureInTurn(
        [{ url: "/api/version" }, { url: "/v1/auth/verify", token }, { url: "/v1/conversations?limit=50", token }, { url: "/v1/openapi.json" }],
        seconds,
        smoke ? 1 : 5,
      );
      log(`  /api/version ${baseline.req_per_s}, /v1/auth/verify ${verify.req_per_s}, /v1/conversations ${conversations.req_per_s} req/s`);
      const verifyRatio = round(verify.req_per_s / baseline.req_per_s, 2);
      const conversationsRatio = round(conversations.req_per_s / baseline.req_per_s, 2);
      return {
        name: "api-overhead",
        connections: 20,
        seconds,
        slices_in_turn: smoke ? 1 : 5,
        baseline: { url: "/api/version", ...baseline },
        auth_verify: verify,
        conversations_limit_50: conversations,
        openapi_json: openapi,
        openapi_etag: etag,
        openapi_if_none_match_status: notModified,
        verify_ratio: verifyRatio,
        conversations_ratio: conversationsRatio,
        goal: "verify_ratio >= 0.8 and conversations_ratio >= 0.6 and openapi_if_none_match_status == 304",
        pass: verifyRatio >= 0.8 && conversationsRatio >= 0.6 && notModified === 304,
      };
    } finally {
      try {
        process.kill(-server.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
  },
};
