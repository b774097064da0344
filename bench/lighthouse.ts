import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { throttling } from "lighthouse/core/config/constants.js";
import { pageFunctions } from "lighthouse/core/lib/page-functions.js";
import { type Bench, type BenchOptions, log } from "./support";

const PORT = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 3196);
const DEBUG_PORT = Number(process.env.BENCH_LIGHTHOUSE_DEBUG_PORT ?? PORT + 1000);
const BASE = `http://localhost:${PORT}`;
const admin = { account_name: "Lighthouse Plants", name: "Bench Admin", email: "lighthouse@example.com", password: "bench-password-123" };

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");
// The flags the browser tests use (playwright.config.ts).
const CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];

/** Starts the production server (the same one `npm start` runs) in its own process group. */
async function startServer(): Promise<ChildProcess> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    log("building the app…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const server = spawn(process.execPath, ["scripts/server.mjs"], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, PGLITE_DIR: "memory://", PORT: String(PORT), NEXT_TELEMETRY_DISABLED: "1", APP_URL: BASE },
  });
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${BASE}/healthz`).then((r) => r.ok, () => false)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The benchmark index of a phone like the mobile preset's (mid-tier mobile: 125–800). */
const TARGET_BENCHMARK_INDEX = 440;

/** Lighthouse's CPU benchmark (the "CPU/Memory Power" of its report) run in the page, median of three. */
async function hostBenchmarkIndex(page: Page) {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) runs.push(await page.evaluate(pageFunctions.computeBenchmarkIndex));
  return Math.round(runs.sort((a, b) => a - b)[1]);
}

/** An inbox at work: a list page full of customers, some of them waiting with unread messages. */
async function seedInbox() {
  const { token } = await json(await fetch(`${BASE}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) }));
  const names = ["Ana Flores", "Ben Okafor", "Chloé Martin", "Dev Patel", "Emma Novak", "Farid Haddad", "Grace Lee", "Hugo Silva", "Ines Costa", "Jonas Berg"];
  for (let i = 0; i < 30; i++) {
    const body = { from: `4915${String(1_000_000 + i)}`, name: `${names[i % names.length]} ${i + 1}`, type: "text", text: `Hello! Is the monstera in the ${i % 2 ? "large" : "small"} pot still available? Order ${1000 + i}` };
    const send = () => fetch(`${BASE}/api/sandbox/inbound`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    let res = await send();
    // A busy host sheds load with 503 and Retry-After: waited for, as a client should.
    for (let attempt = 0; res.status === 503 && attempt < 10; attempt++) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
      res = await send();
    }
    await json(res);
  }
}

/**
 * Lighthouse (npm) against Debian Chromium on the signed-in inbox at mobile emulation, and
 * Chromium's own installability check (the one behind its install prompt). `--smoke` checks
 * installability only.
 */
export const lighthouseBench: Bench = {
  name: "lighthouse-inbox-mobile",
  description: "Lighthouse on /inbox, signed in, mobile emulation: installable, performance ≥ 90, accessibility ≥ 95, best practices ≥ 95",
  async run({ smoke }: BenchOptions) {
    const server = await startServer();
    const profile = mkdtempSync(path.join(tmpdir(), "chorus-lighthouse-"));
    // The default (persistent) context: Lighthouse opens its tab there, with this sign-in's cookie.
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${DEBUG_PORT}`],
      viewport: { width: 412, height: 823 },
    });
    try {
      await json(await fetch(`${BASE}/api/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) }));
      if (!smoke) await seedInbox();
      const page = await context.newPage();
      await page.goto(`${BASE}/login`);
      await page.getByLabel("Email").fill(admin.email);
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/inbox/);
      await page.evaluate(() => navigator.serviceWorker.ready);
      const manifest = await json(await fetch(`${BASE}/manifest.webmanifest`));
      const cdp = await context.newCDPSession(page);
      let errors: string[] = [];
      for (let i = 0; i < 20; i++) {
        errors = ((await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map((e) => e.errorId);
        if (errors.length === 0) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const installable = errors.length === 0 && manifest.display === "standalone" && manifest.start_url === "/inbox";
      if (smoke) return { name: this.name, installable, installability_errors: errors, goal: "installable", pass: installable };

      const { default: lighthouse } = await import("lighthouse");
      // Lighthouse's 4x CPU slowdown turns a fast desktop (benchmark index ~1750) into a mid-tier
      // phone (~440); on a slower or busy host it emulates a far slower phone than the preset's.
      // As Lighthouse's throttling guide prescribes, the slowdown is calibrated to this host with
      // Lighthouse's own benchmark, measured now: index / 440, between 1x and 4x.
      const benchmarkIndex = await hostBenchmarkIndex(page);
      // BENCH_LIGHTHOUSE_CPU_SLOWDOWN=4 measures at Lighthouse's uncalibrated default instead.
      const cpuSlowdown = Number(process.env.BENCH_LIGHTHOUSE_CPU_SLOWDOWN) || Math.min(4, Math.max(1, Math.round((benchmarkIndex / TARGET_BENCHMARK_INDEX) * 10) / 10));
      log(`running Lighthouse (mobile; host benchmark index ${benchmarkIndex}, CPU slowdown ${cpuSlowdown}x)…`);
      const result = await lighthouse(`${BASE}/inbox`, {
        port: DEBUG_PORT,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
        formFactor: "mobile",
        // Lighthouse's own mobile preset (Moto G Power, slow 4G, simulated throttling).
        screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
        throttlingMethod: "simulate",
        throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: cpuSlowdown },
        disableStorageReset: true,
      });
      if (!result) throw new Error("Lighthouse returned no result");
      // The whole report (open it at https://googlechrome.github.io/lighthouse/viewer/), when asked for.
      if (process.env.BENCH_LIGHTHOUSE_REPORT) writeFileSync(process.env.BENCH_LIGHTHOUSE_REPORT, JSON.stringify(result.lhr));
      const score = (id: string) => Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
      const performance = score("performance");
      const accessibility = score("accessibility");
      const bestPractices = score("best-practices");
      const failing = Object.values(result.lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== "informative" && audit.scoreDisplayMode !== "manual" && audit.scoreDisplayMode !== "notApplicable")
        .map((audit) => audit.id);
      // What moved, and what kept the main thread busy: where to look when the score drops.
      const items = (id: string) => ((result.lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []);
      for (const item of items("layout-shifts")) log(`  layout shift ${JSON.stringify(item.score)}: ${JSON.stringify((item.node as { snippet?: string } | undefined)?.snippet ?? item.node)}`);
      for (const item of items("bootup-time").slice(0, 5)) log(`  script ${String(item.url)}: ${Math.round(Number(item.total))} ms`);
      const metric = (id: string) => Math.round(result.lhr.audits[id]?.numericValue ?? 0);
      return {
        name: this.name,
        installable,
        installability_errors: errors,
        performance,
        host_benchmark_index: benchmarkIndex,
        lighthouse_benchmark_index: Math.round(result.lhr.environment.benchmarkIndex),
        cpu_slowdown: cpuSlowdown,
        accessibility,
        best_practices: bestPractices,
        lcp_ms: metric("largest-contentful-paint"),
        tbt_ms: metric("total-blocking-time"),
        cls: result.lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
        audits_below_90: failing,
        goal: "installable, performance >= 90, accessibility >= 95, best_practices >= 95",
        pass: installable && performance >= 90 && accessibility >= 95 && bestPractices >= 95,
      };
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      try {
        process.kill(-server.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
  },
};
