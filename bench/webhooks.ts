// Fan-out benchmark: 2,000 events recorded through recordEvent, each delivered to 5 local
// HTTP receivers by the local job runner, on a fresh in-memory PGlite. Reports deliveries
// per second and the first-attempt latency from the event's commit to its arrival.
//   npx tsx bench/webhooks.ts [events]   (or through `npm run bench`)
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { type DbHandle, getDbHandle, newPglite, openPglite, setDbHandle } from "@/db";
import { accounts } from "@/db/schema";
import { resetEnvCache } from "@/lib/env";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";
import { JOBS_CHANNEL } from "@/lib/jobs/enqueue";
import { jobHandlers } from "@/lib/jobs/handlers";
import { startJobRunner } from "@/lib/jobs/runner";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { percentile, round } from "./support";

const RECEIVERS = 5;
const CONCURRENCY = 16;
const TIMEOUT_MS = 10 * 60_000;

type Receiver = { server: Server; url: string };

export async function run({ events: EVENTS = 2_000 }: { events?: number } = {}): Promise<Record<string, unknown>> {
  // Only this benchmark's settings; nothing is written to ./.data.
  const saved = { ...process.env };
  process.env.WEBHOOK_ALLOW_INSECURE_TARGETS = "true";
  process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
  process.env.PGLITE_DIR = "memory://";
  delete process.env.DATABASE_URL;
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
  resetEnvCache();

  const previous: DbHandle | undefined = (globalThis as { __chorusDb?: DbHandle }).__chorusDb;
  const handle = openPglite(newPglite("memory://"));
  setDbHandle(handle);
  const receivers: Receiver[] = [];
  let stopRunner: (() => Promise<void>) | undefined;
  try {
    await handle.migrate();
    const db = getDbHandle().db;

    const committedAt = new Map<string, number>();
    const firstArrival: number[] = [];
    let firstAttempts = 0;
    let lastArrival = 0;
    let done: () => void = () => {};
    const allArrived = new Promise<void>((resolve) => (done = resolve));

    for (let i = 0; i < RECEIVERS; i++) {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const at = performance.now();
          const type = req.headers["x-service-event-type"];
          if (type === "webhook.verified") {
            const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            res.writeHead(200).end(body.data.challenge);
            return;
          }
          res.writeHead(200).end("ok");
          if (req.headers["x-service-delivery-attempt"] !== "1") return;
          const commit = committedAt.get(String(req.headers["x-service-event-id"]));
          if (commit !== undefined) firstArrival.push(at - commit);
          firstAttempts++;
          lastArrival = at;
          if (firstAttempts === EVENTS * RECEIVERS) done();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      receivers.push({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
    }

    const accountId = newId("account");
    await db.insert(accounts).values({ id: accountId, name: "Benchmark" });
    const ctx = { accountId, user: { id: "usr_bench", name: "Bench", email: "bench@example.com", role: "admin" as const } };
    for (const r of receivers) {
      const webhook = await createWebhook({ ctx, input: { url: r.url, events: ["message.received"] } });
      if (webhook.status !== "active") throw new Error(`receiver not verified: ${webhook.status_reason}`);
    }

    const runner = startJobRunner({ db, handlers: jobHandlers, pollMs: 50, concurrency: CONCURRENCY });
    stopRunner = () => runner.stop();
    const unlisten = await handle.pglite!.listen(JOBS_CHANNEL, () => runner.wake());

    const start = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const event = await db.transaction((tx) =>
        recordEvent(tx, {
          accountId,
          type: "message.received",
          data: { message: { id: `msg_${i}`, text: `benchmark message ${i}` }, conversation: { id: "conv_bench", status: "open" } },
        }),
      );
      committedAt.set(event.id, performance.now());
    }
    const recorded = performance.now();
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not all deliveries arrived within ${TIMEOUT_MS / 1000} s (${firstAttempts})`)), TIMEOUT_MS).unref());
    await Promise.race([allArrived, timeout]);
    await unlisten();
    await runner.stop();
    stopRunner = undefined;

    const seconds = (lastArrival - start) / 1000;
    const latency = (p: number) => (firstArrival.length ? round(percentile(firstArrival, p), 1) : null);
    return {
      benchmark: "webhook fan-out (local runner, PGlite in memory)",
      events: EVENTS,
      receivers: RECEIVERS,
      deliveries: firstAttempts,
      runner_concurrency: CONCURRENCY,
      record_events_s: Math.round((recorded - start) / 10) / 100,
      total_s: Math.round(seconds * 100) / 100,
      deliveries_per_s: Math.round(firstAttempts / seconds),
      first_attempt_latency_ms: { p50: latency(50), p99: latency(99), max: latency(100) },
      note: "events are recorded as fast as possible while the runner delivers; latency is from each event's commit to its first attempt arriving, queueing included",
    };
  } finally {
    await stopRunner?.();
    await Promise.all(receivers.map((r) => new Promise<void>((resolve) => { r.server.closeAllConnections(); r.server.close(() => resolve()); })));
    await handle.close();
    setDbHandle(previous);
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    resetEnvCache();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run({ events: Number(process.argv[2] ?? 2_000) })
    .then((result) => {
      console.log(JSON.stringify(result, null, 2));
      process.exit(0);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
