import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { log } from "./support";

export const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

/** The production build the server runs, built once when missing. */
export function ensureBuild() {
  if (existsSync(path.join(root, ".next", "BUILD_ID"))) return;
  log("building the app…");
  const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (build.status !== 0) throw new Error("next build failed");
}

/** `npm start`'s server (Next.js and the WebSocket endpoint) in its own process group. */
export function startChorus({ port, env }: { port: number; env: Record<string, string> }): ChildProcess {
  return spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PORT: String(port), APP_URL: `http://localhost:${port}`, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...env },
  });
}

/** Stops the server's process group and waits for it to exit. */
export function stopChorus(server: ChildProcess, signal: NodeJS.Signals = "SIGKILL") {
  const exited = new Promise<void>((resolve) => (server.exitCode !== null || server.signalCode !== null ? resolve() : server.once("exit", () => resolve())));
  try {
    process.kill(-server.pid!, signal);
  } catch {
    // Already gone.
  }
  return exited;
}

/** The resident memory of a process, in bytes (Linux). */
export function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

export async function waitForHealthz(base: string, server: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}
