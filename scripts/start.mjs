// `npm start`: build when the sources changed since the last build, then serve (scripts/server.mjs:
// Next.js plus the WebSocket endpoint /v1/ws).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { serverNodeFlags } from "./server-flags.mjs";

const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, ".next", "BUILD_ID");
const sources = ["app", "components", "lib", "db", "inngest", "proxy.ts", "instrumentation.ts", "next.config.mjs", "package-lock.json"];

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((max, child) => Math.max(max, newestMtime(path.join(entry, child))), stat.mtimeMs);
}

// PORT is handed to the server before the app's own environment check runs, so it is
// checked here with the same rule as lib/platform/env.ts, in the same one-line form.
const port = process.env.PORT ?? "3000";
if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
  console.error("Invalid environment variable PORT: must be an integer from 1 to 65535");
  process.exit(1);
}

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const stale = !existsSync(buildId) || sources.some((s) => newestMtime(s) > statSync(buildId).mtimeMs);
if (stale) {
  console.log("Building Chorus…");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [...serverNodeFlags(), path.join(root, "scripts/server.mjs")], {
  cwd: root,
  env: { ...env, PORT: port, NODE_ENV: "production" },
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
