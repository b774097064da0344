import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { buildInboundPayload, signHubPayload } from "@/tests/support/fake-cloud-network";
import { type Bench, type BenchOptions, log, percentile, round } from "./support";

const PORT = Number(process.env.BENCH_INBOX_PORT ?? 3199);
const BASE = `http://localhost:${PORT}`;
const PHONE_NUMBER_ID = "109876543210";
const APP_SECRET = "bench-app-secret";
const admin = { account_name: "Bench Plants", name: "Bench Admin", email: "bench-admin@example.com", password: "bench-password-123" };

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Starts the production server in its own process group so that stopping it stops everything. */
async function startServer(): Promise<ChildProcess> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    log("building the app…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const server = spawn(process.execPath, [nextBin, "start", "-p", String(PORT)], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, ...INBOX_BENCH_SERVER_ENV, NEXT_TELEMETRY_DISABLED: "1", APP_URL: BASE },
  });
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${BASE}/healthz`).then((r) => r.ok, () => false)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

/**
 * The bench's server and number: the fake network's Graph API lives on loopback over http,
 * which the URL policy allows only with WEBHOOK_ALLOW_INSECURE_TARGETS (never in production).
 */
export const INBOX_BENCH_SERVER_ENV = { PGLITE_DIR: "memory://", JOBS_POLL_MS: "100", WEBHOOK_ALLOW_INSECURE_TARGETS: "true" };
export const INBOX_BENCH_NUMBER = {
  provider: "cloud",
  phone_number: "+14155552671",
  phone_number_id: PHONE_NUMBER_ID,
  business_account_id: "102290129340398",
  access_token: "bench-access-token",
  app_secret: APP_SECRET,
  verify_token: "bench-verify",
  api_base_url: "http://127.0.0.1:9/v21.0",
};

/**
 * A conversation of 5,000 messages (delivered 100 per webhook POST): the time to open it until
 * its newest message shows, and to scroll back to its first message, page by page.
 */
async function measureLongConversation(page: import("@playwright/test").Page, LONG_THREAD: number) {
  const from = "447700999999";
  for (let batch = 0; batch < Math.ceil(LONG_THREAD / 100); batch++) {
    const messages = Array.from({ length: 100 }, (_, i) => ({
      from,
      name: "Long Thread",
      type: "text",
      text: `Thread message ${batch * 100 + i + 1}`,
      timestamp: new Date(Date.now() - (LONG_THREAD - batch * 100 - i) * 1000),
    }));
    const body = JSON.stringify(buildInboundPayload({ phoneNumberId: PHONE_NUMBER_ID, messages }));
    const res = await fetch(`${BASE}/api/network/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody: body }) },
      body,
    });
    if (!res.ok) throw new Error(`webhook answered ${res.status}`);
  }
  log(`  seeded a conversation of ${LONG_THREAD} messages`);
  await page.reload();
  await page.getByRole("status", { name: "Live updates on" }).waitFor();
  const openStarted = performance.now();
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: /Long Thread/ }).click();
  // In the thread itself: the conversation list shows the same text as the preview.
  const log_ = page.getByRole("log", { name: "Messages with Long Thread" });
  await log_.getByText(`Thread message ${LONG_THREAD}`, { exact: true }).waitFor();
  const openMs = performance.now() - openStarted;
  // The page scrolls itself, a frame at a time, so the time is the inbox's and not the time the
  // test driver takes to query a page that grows by the page it scrolls through.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const busy = async () => (await cdp.send("Performance.getMetrics")).metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0;
  const busyBefore = await busy();
  const scrollStarted = performance.now();
  await log_.evaluate(async (node) => {
    // (No named functions in here: the bench's compiler would wrap them in a helper the page lacks.)
    for (let frames = 0; !node.querySelector('[data-thread-start="true"]'); frames++) {
      if (frames > 20_000) throw new Error("never reached the first message");
      node.scrollTo({ top: 0 });
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
  });
  await log_.getByText("Thread message 1", { exact: true }).waitFor();
  return {
    long_thread_messages: LONG_THREAD,
    long_thread_open_ms: round(openMs, 1),
    long_thread_scroll_to_first_ms: round(performance.now() - scrollStarted, 1),
    /** Of that, the time the page's main thread was busy (script, style, layout, paint). */
    long_thread_scroll_main_thread_ms: round((await busy() - busyBefore) * 1000, 1),
  };
}

/**
 * From a signed inbound POST on the network webhook to the message text on screen in a
 * signed-in inbox of another browser: the whole live path (store, NOTIFY, SSE, render).
 */
export const inboxLatencyBench: Bench = {
  name: "inbox-inbound-to-visible",
  description: "50 inbound webhook POSTs, each timed until visible in a second browser's inbox",
  async run({ smoke }: BenchOptions) {
    const MESSAGES = smoke ? 3 : 50;
    const server = await startServer();
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    });
    try {
      await json(await fetch(`${BASE}/api/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) }));
      const { token } = await json(
        await fetch(`${BASE}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) }),
      );
      await json(
        await fetch(`${BASE}/v1/config/number`, {
          method: "PUT",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(INBOX_BENCH_NUMBER),
        }),
      );

      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${BASE}/login`);
      await page.getByLabel("Email").fill(admin.email);
      await page.getByLabel("Password").fill(admin.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(/\/inbox/);
      await page.getByRole("status", { name: "Live updates on" }).waitFor();

      const samples: number[] = [];
      for (let i = 0; i < MESSAGES; i++) {
        const text = `Bench message ${i} ${Date.now()}`;
        const body = JSON.stringify(
          buildInboundPayload({ phoneNumberId: PHONE_NUMBER_ID, messages: [{ from: `4477009${String(i).padStart(5, "0")}`, name: `Customer ${i}`, type: "text", text }] }),
        );
        const visible = page.getByText(text).first().waitFor({ timeout: 10_000 });
        const started = performance.now();
        const res = await fetch(`${BASE}/api/network/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody: body }) },
          body,
        });
        if (!res.ok) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
        await visible;
        samples.push(performance.now() - started);
        if ((i + 1) % 10 === 0) log(`  ${i + 1}/${MESSAGES}`);
      }
      const long = await measureLongConversation(page, smoke ? 200 : 5_000);
      return {
        name: this.name,
        ...long,
        messages: MESSAGES,
        p50_ms: round(percentile(samples, 50), 1),
        p95_ms: round(percentile(samples, 95), 1),
        max_ms: round(Math.max(...samples), 1),
        goal: "p95_ms < 1000",
        pass: percentile(samples, 95) < 1000,
      };
    } finally {
      await browser.close();
      try {
        process.kill(-server.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    }
  },
};
