// `npm test`: typecheck, lint, unit and integration tests (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), then the browser tests against a production build, then every
// benchmark in smoke mode (`npm run bench -- --smoke`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function run(title, command, args, extraEnv = {}) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`\n${title} failed.`);
    process.exit(result.status ?? 1);
  }
}

// Route types from an earlier build can name pages that no longer exist; a clean clone has none.
for (const dir of [".next/types", ".next/dev/types"]) rmSync(path.join(root, dir), { recursive: true, force: true });
run("Typecheck", bin("tsc"), ["--noEmit"]);
run("Lint", bin("eslint"), [".", "--max-warnings=0"]);
run("Unused exports", bin("knip"), []);
run("Unit and integration tests (PGlite)", bin("vitest"), ["run"], { TEST_DB: "pglite" });
if (process.env.TEST_DATABASE_URL) {
  run("Integration tests (PostgreSQL)", bin("vitest"), ["run", "--project", "integration"], { TEST_DB: "postgres" });
} else {
  console.log("\n(TEST_DATABASE_URL unset: the integration suite ran on PGlite only.)");
}
run("Build", bin("next"), ["build"]);
run("WebSocket server test", process.execPath, ["--test", "tests/server/"]);
// The cluster test needs Caddy, Redis and PostgreSQL's binaries (.ci/run installs them).
const has = (file) => existsSync(file);
if (has("/usr/bin/caddy") && has("/usr/bin/redis-server") && has("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql", { withFileTypes: true }).length) {
  run("Cluster test (Caddy, PostgreSQL, Redis, two instances)", process.execPath, ["--test", "tests/cluster/"]);
} else {
  console.log("\n(caddy, redis-server or PostgreSQL missing: the cluster test did not run.)");
}
run("Browser tests (Playwright, Chromium)", bin("playwright"), ["test"]);
// The answer assistant's browser tests need the server started with a language model: a second
// server whose LLM_* point at the fake OpenAI-compatible model the test itself serves.
run("Browser tests with a language model (Playwright, Chromium)", bin("playwright"), ["test", "tests/e2e/answers.spec.ts"], {
  E2E_PORT: "3150",
  E2E_LLM_PORT: "3151",
  LLM_BASE_URL: "http://127.0.0.1:3151/v1",
  LLM_API_KEY: "sk-e2e",
  LLM_MODEL: "e2e-model",
});
// Every benchmark at tiny sizes, so that none can rot (the numbers themselves are not checked here).
run("Benchmarks (smoke)", process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "bench/run.ts", "--smoke"]);
