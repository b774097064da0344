// Delivery engine benchmarks, each on a fresh database with local HTTP receivers (in a
// process of their own) and the server's own job runner (lanes, batches, wake on commit):
// - fan-out: 2,000 events × 5 receivers, first attempts per second (PGlite, and PostgreSQL
//   when BENCH_DATABASE_URL or TEST_DATABASE_URL is set);
// - steady: 50 events/s for 30 s × 5 receivers, first-attempt latency from commit;
// - fairness: one account with 20 hanging receivers, another account's first attempts and
//   outbound sends, latency from commit.
//   npx tsx bench/run.ts webhook-fan-out   (or through `npm run bench`)
import { randomBytes } from "node:crypto";
import { fork } from "node:child_process";
import path from "node:path";
import postgres from "postgres";
import { type DbHandle, getDbHandle, newPglite, openPglite, openPostgres, rowsOf, setDbHandle } from "@/db";
import { accounts, webhookAttempts } from "@/db/schema";
import { sql } from "drizzle-orm";
import { resetEnvCache } from "@/lib/platform/env";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { enqueueJob, JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { jobRegistry } from "@/lib/server/job-registry";
import type { JobRegistry } from "@/lib/jobs/define";
import { startJobRunner } from "@/lib/jobs/local-runner";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { type Bench, type BenchOptions, log, percentile, round } from "./support";
import { dropDatabase } from "@/db/drop-database";
import { systemContext, verbContext } from "@/lib/server/context";

type Arrival = (eventId: string, at: number) => void;
type Receiver = { url: string; stopHanging: () => void };
type ReceiverMessage = { type: "started"; id: number; url: string } | { type: "closed"; id: number } | { type: "arrivals"; list: [number, string, number][] };

/**
 * Local receivers in a child process (bench/receiver-process.ts), as real receivers are
 * elsewhere: their HTTP work does not share the engine's thread. Each answers the
 * challenge, then 200 (or holds every delivery while `hang`); first attempts come back with
 * their arrival time on this process's clock.
 */
function receiverHost() {
  const child = fork(path.join(import.meta.dirname, "receiver-process.ts"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const onArrival = new Map<number, Arrival>();
  const waiting = new Map<number, { resolve: (message: ReceiverMessage) => void; reject: (error: Error) => void }>();
  // The child's monotonic clock (process.hrtime, system-wide) to this process's performance.now().
  const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  child.on("message", (message: ReceiverMessage) => {
    if (message.type === "arrivals") for (const [id, eventId, at] of message.list) onArrival.get(id)?.(eventId, at - offset);
    else waiting.get(message.id)?.resolve(message);
  });
  let closing = false;
  let died!: (error: Error) => void;
  /** Rejects if the receivers' process ends before it is closed: a run waiting for arrivals fails at once. */
  const death = new Promise<never>((_, reject) => (died = reject));
  death.catch(() => {});
  child.on("exit", (code, signal) => {
    const error = new Error(`the receivers' process exited (${signal ?? code})`);
    for (const { reject } of waiting.values()) reject(error);
    if (!closing) died(error);
  });
  const send = (message: Record<string, unknown>) => {
    if (!child.connected) throw new Error("the receivers' process is gone");
    child.send(message);
  };
  let next = 0;
  const request = (message: Record<string, unknown> & { id: number }) =>
    new Promise<ReceiverMessage>((resolve, reject) => {
      waiting.set(message.id, { resolve: (answer) => (waiting.delete(message.id), resolve(answer)), reject });
      send(message);
    });
  const ids: number[] = [];
  return {
    death,
    async start(onFirstAttempt: Arrival, { hang = false } = {}): Promise<Receiver> {
      const id = next++;
      onArrival.set(id, onFirstAttempt);
      const started = await request({ type: "start", id, hang });
      ids.push(id);
      return { url: (started as { url: string }).url, stopHanging: () => send({ type: "stop-hanging", id }) };
    },
    async close() {
      closing = true;
      if (!child.connected) return;
      for (const id of ids) await request({ type: "close", id });
      child.disconnect();
    },
  };
}

const pgUrl = () => process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;

/** A fresh database (in-memory PGlite, or a new PostgreSQL database dropped afterwards) installed as the process's database. */
async function openDatabase(kind: "pglite" | "postgres"): Promise<{ handle: DbHandle; drop: () => Promise<void> }> {
  if (kind === "pglite") {
    const handle = openPglite(newPglite("memory://"));
    await handle.migrate();
    return { handle, drop: async () => handle.close() };
  }
  const admin = postgres(pgUrl()!, { max: 1, onnotice: () => {} });
  const name = `chorus_bench_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  const url = new URL(pgUrl()!);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), { max: 10 });
  await handle.migrate();
  return {
    handle,
    drop: async () => {
      await handle.close();
      await dropDatabase(admin, name);
      await admin.end();
    },
  };
}

/**
 * Runs `body` with the engine as the server runs it: a fresh database, the runner in its
 * lanes woken on commit, the bench's own environment (nothing is written to ./.data).
 */
async function withEngine<T>(
  kind: "pglite" | "postgres",
  jobs: JobRegistry,
  body: (ctx: { createAccount: (name: string) => Promise<string>; register: (accountId: string, url: string) => Promise<void> }) => Promise<T>,
): Promise<T> {
  const saved = { ...process.env };
  process.env.WEBHOOK_ALLOW_INSECURE_TARGETS = "true";
  process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
  process.env.PGLITE_DIR = "memory://";
  delete process.env.DATABASE_URL;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
  resetEnvCache();
  const previous: DbHandle | undefined = (globalThis as { __chorusDb?: DbHandle }).__chorusDb;
  const { handle, drop } = await openDatabase(kind);
  setDbHandle(handle);
  const db = getDbHandle().db;
  const runner = startJobRunner({ system: { ...systemContext(), db }, jobs, batches: true, pollMs: 500 });
  const unlisten = handle.pglite
    ? await handle.pglite.listen(JOBS_CHANNEL, (payload) => runner.wake(payload))
    : await handle.sql!.listen(JOBS_CHANNEL, (payload) => runner.wake(payload)).then((s) => () => s.unlisten());
  try {
    return await body({
      createAccount: async (name) => {
        const id = newId("account");
        await db.insert(accounts).values({ id, name });
        return id;
      },
      register: async (accountId, url) => {
        const ctx = verbContext({ accountId, user: { id: "usr_bench", name: "Bench", email: "bench@example.com", role: "admin" as const } });
        const webhook = await createWebhook({ ctx, input: { url, events: ["message.received"] } });
        if (webhook.status !== "active") throw new Error(`receiver not verified: ${webhook.status_reason}`);
      },
    });
  } finally {
    await unlisten();
    await runner.stop();
    await drop();
    setDbHandle(previous);
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    resetEnvCache();
  }
}

const emitOne = (accountId: string, i: number) =>
  getDbHandle().db.transaction((tx) =>
    recordEvent({ ...systemContext(), db: tx }, {
      accountId,
      type: "message.received",
      data: { message: { id: `msg_${i}`, text: `benchmark message ${i}` }, conversation: { id: "conv_bench", status: "open" } },
    }),
  );

const latency = (samples: number[]) => ({
  p50: samples.length ? round(percentile(samples, 50), 1) : null,
  p99: samples.length ? round(percentile(samples, 99), 1) : null,
  max: samples.length ? round(Math.max(...samples), 1) : null,
});

/** Latency from commit to first arrival, per event id and receiver. */
function arrivals() {
  const committedAt = new Map<string, number>();
  const pending = new Map<string, number[]>();
  const samples: number[] = [];
  let count = 0;
  let last = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const onFirstAttempt: Arrival = (eventId, at) => {
    const commit = committedAt.get(eventId);
    if (commit !== undefined) samples.push(at - commit);
    else pending.set(eventId, [...(pending.get(eventId) ?? []), at]);
    count++;
    last = at;
    for (const w of [...waiters]) {
      if (count < w.n) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  return {
    onFirstAttempt,
    committed(eventId: string, at: number) {
      committedAt.set(eventId, at);
      // An arrival can be seen before the commit returns to the caller.
      for (const t of pending.get(eventId) ?? []) samples.push(Math.max(0, t - at));
      pending.delete(eventId);
    },
    samples,
    count: () => count,
    last: () => last,
    waitFor(n: number, timeoutMs: number) {
      if (count >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${count} of ${n} first attempts arrived within ${timeoutMs / 1000} s`)), timeoutMs);
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
  };
}

const RECEIVERS = 5;
const PRODUCERS = 4;

/** Why first attempts failed (a benchmark that misses arrivals says what happened to them). */
async function failedFirstAttempts() {
  const rows = await getDbHandle().db.execute(
    sql`select error, response_status, count(*)::int as n from ${webhookAttempts} where attempt = 1 and status <> 'succeeded' group by 1, 2 order by 3 desc limit 10`,
  );
  return rowsOf(rows);
}

async function fanOut(kind: "pglite" | "postgres", events: number) {
  const track = arrivals();
  const host = receiverHost();
  const receivers: Receiver[] = [];
  try {
    for (let i = 0; i < RECEIVERS; i++) receivers.push(await host.start(track.onFirstAttempt));
    return await withEngine(kind, jobRegistry, async ({ createAccount, register }) => {
      const accountId = await createAccount("Benchmark");
      for (const r of receivers) await register(accountId, r.url);
      const start = performance.now();
      // Events come from concurrent requests: on PostgreSQL, PRODUCERS loops each record one event
      // per transaction; a single loop would measure its own round trips (BEGIN, the event,
      // COMMIT) rather than the engine. The embedded database has one connection, which runs
      // one transaction at a time whoever asks: one loop there.
      const producers = kind === "postgres" ? PRODUCERS : 1;
      let next = 0;
      // A producer that fails stops the others, so that its error is the one reported.
      let failed = false;
      const produce = async () => {
        for (let i = next++; i < events && !failed; i = next++) {
          // Each request is its own I/O callback: a loop of embedded-database transactions
          // that never yields would starve the runner in this same process.
          await new Promise((resolve) => setImmediate(resolve));
          const event = await emitOne(accountId, i).catch((error) => {
            failed = true;
            throw error;
          });
          track.committed(event.id, performance.now());
        }
      };
      await Promise.all(Array.from({ length: producers }, produce));
      const recorded = performance.now();
      await Promise.race([track.waitFor(events * RECEIVERS, 10 * 60_000), host.death]).catch(async (error: Error) => {
        throw new Error(`${error.message}; first attempts that failed: ${JSON.stringify(await failedFirstAttempts())}`);
      });
      const seconds = (track.last() - start) / 1000;
      const perSecond = Math.round(track.count() / seconds);
      return {
        database: kind,
        events,
        receivers: RECEIVERS,
        receivers_in_own_process: true,
        producers,
        first_attempts: track.count(),
        record_events_s: round((recorded - start) / 1000, 2),
        total_s: round(seconds, 2),
        first_attempts_per_s: perSecond,
        first_attempt_latency_ms: latency(track.samples),
        goal: "first_attempts_per_s >= 1000",
        pass: perSecond >= 1000,
        note: "events are recorded one transaction per event while the runner delivers, by concurrent producers on PostgreSQL; latency is from each event's commit to its first attempt arriving",
      };
    });
  } finally {
    await host.close();
  }
}

/**
 * The machine's speed varies from one run to the next (a shared 2-core VM: the same run has
 * taken from 17 s to 25 s of CPU), so the full benchmark runs three times, each on a fresh
 * database, and reports the median run, with every run's rate listed. A server that has run
 * for a while has its code compiled: V8 first runs the embedded database's WebAssembly and
 * the server's JavaScript unoptimized and recompiles what is hot as it runs; on PGlite the
 * first run of a process was the slowest of the three in 7 of the last 9 measurements. So one run of
 * the same size comes first, reported as the warm-up and not counted.
 */
async function medianOfRuns(kind: "pglite" | "postgres", smoke: boolean) {
  if (smoke) return { ...(await fanOut(kind, 40)), runs: 1 };
  const warmup = await fanOut(kind, 2_000);
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await fanOut(kind, 2_000));
  const sorted = [...runs].sort((x, y) => x.first_attempts_per_s - y.first_attempts_per_s);
  return {
    ...sorted[1],
    runs: runs.length,
    first_attempts_per_s_each_run: runs.map((run) => run.first_attempts_per_s),
    warmup_first_attempts_per_s: warmup.first_attempts_per_s,
  };
}

export const fanOutBench: Bench = {
  name: "webhook-fan-out",
  description: "2,000 events to 5 local receivers through the local runner on PGlite: first attempts per second (median of 3 runs after a warm-up run)",
  run: async ({ smoke }) => ({ name: "webhook-fan-out", ...(await medianOfRuns("pglite", smoke)) }),
};

export const fanOutPostgresBench: Bench = {
  name: "webhook-fan-out-postgres",
  description: "the same fan-out on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), median of 3 runs after a warm-up run",
  run: async ({ smoke }) => {
    if (!pgUrl()) return { name: "webhook-fan-out-postgres", skipped: "BENCH_DATABASE_URL / TEST_DATABASE_URL unset", goal: "first_attempts_per_s >= 1000", pass: null };
    return { name: "webhook-fan-out-postgres", ...(await medianOfRuns("postgres", smoke)) };
  },
};

export const steadyBench: Bench = {
  name: "webhook-steady",
  description: "50 events/s for 30 s to 5 local receivers: first-attempt latency from commit",
  async run({ smoke }: BenchOptions) {
    const seconds = smoke ? 2 : 30;
    const rate = 50;
    const track = arrivals();
    const host = receiverHost();
    const receivers: Receiver[] = [];
    try {
      for (let i = 0; i < RECEIVERS; i++) receivers.push(await host.start(track.onFirstAttempt));
      return await withEngine("pglite", jobRegistry, async ({ createAccount, register }) => {
        const accountId = await createAccount("Benchmark");
        for (const r of receivers) await register(accountId, r.url);
        const start = performance.now();
        const total = seconds * rate;
        for (let i = 0; i < total; i++) {
          const due = start + (i * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const event = await emitOne(accountId, i);
          track.committed(event.id, performance.now());
        }
        await Promise.race([track.waitFor(total * RECEIVERS, 60_000), host.death]);
        const p99 = percentile(track.samples, 99);
        return {
          name: "webhook-steady",
          events_per_s: rate,
          seconds,
          receivers: RECEIVERS,
          receivers_in_own_process: true,
          first_attempts: track.count(),
          first_attempt_latency_ms: latency(track.samples),
          goal: "first_attempt_latency_ms.p99 < 250",
          pass: p99 < 250,
        };
      });
    } finally {
      await host.close();
    }
  },
};

export const fairnessBench: Bench = {
  name: "webhook-fairness",
  description: "one account with 20 hanging receivers; another account's first attempts and outbound sends, latency from commit",
  async run({ smoke }: BenchOptions) {
    const seconds = smoke ? 2 : 15;
    const quiet = arrivals();
    const noisyCount = { n: 0 };
    const host = receiverHost();
    const sendLatency: number[] = [];
    const sendQueued = new Map<string, number>();
    const handlers: JobRegistry = {
      ...jobRegistry,
      // An outbound customer send as the runner sees it: the time until it starts is what counts.
      "message.send": {
        ...jobRegistry["message.send"],
        handler: async (payload) => {
          const queued = sendQueued.get(payload.messageId);
          if (queued !== undefined) sendLatency.push(performance.now() - queued);
        },
      },
    };
    try {
      const hanging = await host.start(() => void noisyCount.n++, { hang: true });
      const steady = await host.start(quiet.onFirstAttempt);
      return await withEngine("pglite", handlers, async ({ createAccount, register }) => {
        const noisy = await createAccount("Noisy");
        const calm = await createAccount("Calm");
        for (let i = 0; i < 20; i++) await register(noisy, `${hanging.url}?receiver=${i}`);
        await register(calm, steady.url);
        const start = performance.now();
        let calmEvents = 0;
        let sends = 0;
        for (let tick = 0; performance.now() - start < seconds * 1000; tick++) {
          // 20 events/s to the hanging account (400 hanging deliveries/s), 10/s to the other, 5 sends/s.
          await emitOne(noisy, tick);
          if (tick % 2 === 0) {
            const event = await emitOne(calm, tick);
            quiet.committed(event.id, performance.now());
            calmEvents++;
          }
          if (tick % 4 === 0) {
            const n = String(sends++);
            sendQueued.set(n, performance.now());
            await enqueueJob(getDbHandle().db, { kind: "message.send", accountId: noisy, payload: { messageId: n } });
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        await Promise.race([quiet.waitFor(calmEvents, 30_000), host.death]);
        const p99 = percentile(quiet.samples, 99);
        const sendP99 = sendLatency.length ? percentile(sendLatency, 99) : Number.POSITIVE_INFINITY;
        hanging.stopHanging();
        return {
          name: "webhook-fairness",
          seconds,
          hanging_receivers: 20,
          hanging_requests_seen: noisyCount.n,
          other_account_first_attempts: quiet.count(),
          other_account_first_attempt_latency_ms: latency(quiet.samples),
          sends: sendLatency.length,
          send_start_latency_ms: latency(sendLatency),
          goal: "other_account_first_attempt_latency_ms.p99 < 1000 and send_start_latency_ms.p99 < 1000",
          pass: p99 < 1000 && sendP99 < 1000 && sendLatency.length === sends,
        };
      });
    } finally {
      log("  closing receivers");
      await host.close();
    }
  },
};
