import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page, type Request } from "@playwright/test";
import { sql } from "drizzle-orm";
import { closeDb, getDb, newPglite, openPglite, setDbHandle } from "@/db";
import { createAccountWithUser } from "@/lib/accounts/create-account";
import { type Bench, type BenchOptions, log, percentile, round } from "./support";

const PORT = Number(process.env.BENCH_VIEW_PORT ?? 3198);
const BASE = `http://localhost:${PORT}`;
const admin = { email: "bench-view@example.com", password: "bench-password-123" };
const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules/next/dist/bin/next");

type Sizes = { short: number; shortMessages: number; longMessages: number; longOpens: number };
const sizesFor = (smoke: boolean): Sizes => (smoke ? { short: 3, shortMessages: 50, longMessages: 300, longOpens: 2 } : { short: 20, shortMessages: 50, longMessages: 5_000, longOpens: 10 });

const pad = (column: string, width: number) => `lpad((${column})::text, ${width}, '0')`;

/**
 * A data directory holding one account, `short` conversations of `shortMessages` messages
 * ("Short 1"…) and one of `longMessages` ("Long Thread", the newest), written with
 * generate_series rather than one request per message.
 */
async function seed(dir: string, sizes: Sizes) {
  await closeDb();
  const handle = openPglite(newPglite(dir));
  await handle.migrate();
  setDbHandle(handle);
  const { account, user } = await getDb().transaction((tx) =>
    createAccountWithUser(tx, { accountName: "Bench Views", name: "Bench Admin", email: admin.email, password: admin.password, role: "admin" }),
  );
  const db = getDb();
  // Conversation 0 is the long one; 1..short the short ones. Ids keep the API's shapes (prefix_ + 26).
  const conversations = sizes.short + 1;
  await db.execute(sql`
    insert into contacts (id, account_id, phone, name, created_at, updated_at)
    select 'ctc_' || ${sql.raw(pad("c", 26))}, ${account.id}, '4477' || ${sql.raw(pad("c", 8))},
           case when c = 0 then 'Long Thread' else 'Short ' || c end, now() - interval '2 days', now() - interval '2 days'
    from generate_series(0, ${conversations - 1}) c`);
  await db.execute(sql`
    insert into conversations (id, account_id, contact_id, status, last_message_at, last_message_preview, unread_count, created_at, updated_at, opened_at, service_window_expires_at)
    select 'conv_' || ${sql.raw(pad("c", 26))}, ${account.id}, 'ctc_' || ${sql.raw(pad("c", 26))}, 'open',
           now() - interval '1 minute' * c, 'Last message', 0, now() - interval '2 days', now(), now() - interval '2 days', now() + interval '20 hours'
    from generate_series(0, ${conversations - 1}) c`);
  const messages = (conversation: string, count: number, label: string) => sql`
    insert into messages (id, account_id, conversation_id, direction, from_number, to_number, type, text, status, sender_type, sender_user_id, created_at, updated_at)
    select 'msg_' || ${sql.raw(pad(`${conversation} * 100000 + m`, 26))}, ${account.id}, 'conv_' || ${sql.raw(pad(conversation, 26))},
           case when m % 3 = 0 then 'outbound' else 'inbound' end,
           case when m % 3 = 0 then '14155552671' else '4477' || ${sql.raw(pad(conversation, 8))} end,
           case when m % 3 = 0 then '4477' || ${sql.raw(pad(conversation, 8))} else '14155552671' end,
           'text', ${label} || ' message ' || m,
           case when m % 3 = 0 then 'delivered' else 'received' end,
           case when m % 3 = 0 then 'user' else 'contact' end,
           case when m % 3 = 0 then ${user.id} else null end,
           now() - interval '1 day' - interval '1 minute' * ${conversation} + interval '1 second' * m,
           now() - interval '1 day'
    from generate_series(1, ${count}) m`;
  await db.execute(messages("0", sizes.longMessages, "Long Thread"));
  for (let c = 1; c <= sizes.short; c++) await db.execute(messages(String(c), sizes.shortMessages, `Short ${c}`));
  await db.execute(sql`update conversations set last_message_at = now() - interval '1 day' - interval '1 minute' * cast(substr(id, 6) as integer) + interval '1 second' * ${sizes.longMessages} where account_id = ${account.id}`);
  await db.execute(sql`analyze`);
  await closeDb();
}

async function startServer(dir: string): Promise<ChildProcess> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    log("building the app…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const server = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: { ...process.env, PORT: String(PORT), PGLITE_DIR: dir, NEXT_TELEMETRY_DISABLED: "1", APP_URL: BASE, JOBS_POLL_MS: "1000" },
  });
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${BASE}/healthz`).then((r) => r.ok, () => false)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

/** A browser, signed in, showing the inbox with live updates on. */
async function signedIn(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${BASE}/login`);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/inbox/);
  return page;
}

/**
 * Clicks a conversation in the list and times, inside the page, until its newest message is
 * visible in the thread (in the scroller's viewport), at the next frame.
 */
async function timeOpen(page: Page, name: string, newest: string): Promise<number> {
  await page.getByRole("list", { name: "Conversation list" }).getByText(name, { exact: true }).first().waitFor();
  return page.evaluate(
    async ([contact, text]) => {
      // (No named functions in here: the bench's compiler would wrap them in a helper the page lacks.)
      const list = document.querySelector('[aria-label="Conversation list"]');
      const row = [...(list?.querySelectorAll("button") ?? [])].find((button) => [...button.querySelectorAll("*")].some((node) => node.childElementCount === 0 && node.textContent === contact));
      if (!row) throw new Error(`no row for ${contact}`);
      const started = performance.now();
      row.click();
      for (;;) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const log = document.querySelector(`[role="log"][aria-label="Messages with ${contact}"]`);
        const hit = log ? [...log.querySelectorAll("p, span, div")].find((node) => node.childElementCount === 0 && node.textContent === text) : undefined;
        if (log && hit) {
          const frame = log.getBoundingClientRect();
          const box = hit.getBoundingClientRect();
          if (box.height > 0 && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1) return performance.now() - started;
        }
        if (performance.now() - started > 30_000) throw new Error(`${text} never became visible`);
      }
    },
    [name, newest] as const,
  );
}

/**
 * The page's requests in flight (the event stream, open by design, aside): `settled()` resolves
 * once none has been in flight for 300 ms.
 */
function pendingRequests(page: Page) {
  const open = new Set<Request>();
  const counts = (request: Request) => !request.url().includes("/v1/events/stream");
  page.on("request", (request) => counts(request) && open.add(request));
  page.on("requestfinished", (request) => open.delete(request));
  page.on("requestfailed", (request) => open.delete(request));
  return {
    async settled() {
      let quietSince = performance.now();
      while (performance.now() - quietSince < 300) {
        await new Promise((r) => setTimeout(r, 50));
        if (open.size > 0) quietSince = performance.now();
      }
    },
  };
}

async function withServer<T>(sizes: Sizes, work: (browser: Browser) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "chorus-bench-view-"));
  log(`  seeding ${sizes.short} × ${sizes.shortMessages} and 1 × ${sizes.longMessages} messages…`);
  await seed(dir, sizes);
  const server = await startServer(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", "--enable-precise-memory-info"],
  });
  try {
    return await work(browser);
  } finally {
    await browser.close();
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Click → newest message visible, for 50-message threads and for a 5,000-message one. */
export const conversationOpenBench: Bench = {
  name: "conversation-open",
  description: "Chromium on PGlite: click a conversation in the list until its newest message is in view (50 and 5,000 messages)",
  async run({ smoke }: BenchOptions) {
    const sizes = sizesFor(smoke);
    return withServer(sizes, async (browser) => {
      const page = await signedIn(browser);
      // Warm: the first open, and what it asks for once its thread is in view (marking it read,
      // suggested replies), compile and cache what every later one uses.
      const requests = pendingRequests(page);
      await timeOpen(page, "Short 1", `Short 1 message ${sizes.shortMessages}`);
      await requests.settled();
      const short: number[] = [];
      for (let c = 2; c <= sizes.short; c++) short.push(await timeOpen(page, `Short ${c}`, `Short ${c} message ${sizes.shortMessages}`));
      const long: number[] = [];
      for (let i = 0; i < sizes.longOpens; i++) {
        // From the list each time, with nothing of the thread in the page yet.
        await page.goto(`${BASE}/inbox`);
        long.push(await timeOpen(page, "Long Thread", `Long Thread message ${sizes.longMessages}`));
      }
      const p95Short = percentile(short, 95);
      const p95Long = percentile(long, 95);
      return {
        name: this.name,
        short_threads: short.length,
        short_messages: sizes.shortMessages,
        short_p50_ms: round(percentile(short, 50), 1),
        short_p95_ms: round(p95Short, 1),
        long_opens: long.length,
        long_messages: sizes.longMessages,
        long_p50_ms: round(percentile(long, 50), 1),
        long_p95_ms: round(p95Long, 1),
        goal: "short_p95_ms < 150 and long_p95_ms < 300",
        pass: smoke ? true : p95Short < 150 && p95Long < 300,
      };
    });
  },
};

/** Scrolling back to the first of 5,000 messages: wall time, main-thread time, page memory. */
export const longThreadBench: Bench = {
  name: "long-thread",
  description: "Chromium on PGlite: a 5,000-message thread scrolled back to its first message (time, main-thread work, page memory)",
  async run({ smoke }: BenchOptions) {
    const sizes = { ...sizesFor(smoke), short: 1, shortMessages: 2 };
    return withServer(sizes, async (browser) => {
      const page = await signedIn(browser);
      const opened = await timeOpen(page, "Long Thread", `Long Thread message ${sizes.longMessages}`);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Performance.enable");
      const metric = async (name: string) => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === name)?.value ?? 0;
      const busyBefore = await metric("TaskDuration");
      const log_ = page.getByRole("log", { name: "Messages with Long Thread" });
      const scrollMs = await log_.evaluate(async (node) => {
        // The page scrolls itself, a frame at a time, so the time is the inbox's and not the test driver's.
        const started = performance.now();
        // Until the start of the conversation and its first message are on screen.
        for (let frames = 0; !node.querySelector('[data-thread-start="true"]') || ![...node.querySelectorAll("p")].some((p) => p.textContent === "Long Thread message 1"); frames++) {
          if (frames > 20_000) throw new Error("never reached the first message");
          node.scrollTo({ top: 0 });
          await new Promise((resolve) => setTimeout(resolve, 16));
        }
        return performance.now() - started;
      });
      await log_.getByText("Long Thread message 1", { exact: true }).waitFor();
      const busyMs = ((await metric("TaskDuration")) - busyBefore) * 1000;
      await cdp.send("HeapProfiler.collectGarbage");
      const heapMb = (await metric("JSHeapUsedSize")) / 1024 / 1024;
      const nodes = await metric("Nodes");
      return {
        name: this.name,
        messages: sizes.longMessages,
        open_ms: round(opened, 1),
        scroll_to_first_ms: round(scrollMs, 1),
        main_thread_ms: round(busyMs, 1),
        page_memory_mb: round(heapMb, 1),
        dom_nodes: nodes,
        goal: "scroll_to_first_ms < 3000 and main_thread_ms < 1500 and page_memory_mb < 150",
        pass: smoke ? true : scrollMs < 3000 && busyMs < 1500 && heapMb < 150,
      };
    });
  },
};
