import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { log } from "./support";
import { serverNodeFlags } from "../scripts/server-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

export type LiveServer = { base: string; process: ChildProcess; output: () => string; rssMiB: () => number; stop: () => Promise<void> };

/**
 * The production server as an owner runs it (scripts/server.mjs: Next.js plus the WebSocket
 * endpoint), in its own process group, built first when there is no build.
 */
export async function startLiveServer(port: number, env: Record<string, string>): Promise<LiveServer> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    log("building the app…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", PORT: String(port), APP_URL: base, ...env },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on("data", (chunk) => (output = (output + chunk).slice(-20_000)));
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 1200 || child.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    process: child,
    output: () => output,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

/** Creates the account (first-run setup) and signs in; the session token. */
export async function setUpAccount(base: string): Promise<string> {
  const admin = { account_name: "Bench Plants", name: "Bench Admin", email: "bench-admin@example.com", password: "bench-password-123" };
  const setup = await fetch(`${base}/api/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) });
  if (setup.status !== 201) throw new Error(`setup answered ${setup.status}: ${await setup.text()}`);
  const login = await fetch(`${base}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: admin.email, password: admin.password }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  return ((await login.json()) as { token: string }).token;
}

/** Least-squares slope of (minutes, MiB) samples: MiB per minute. */
export function slopePerMinute(samples: { atMs: number; mib: number }[]): number {
  if (samples.length < 2) return 0;
  const xs = samples.map((s) => s.atMs / 60_000);
  const ys = samples.map((s) => s.mib);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0);
  const den = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}
