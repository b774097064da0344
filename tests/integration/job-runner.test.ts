import { type ChildProcess, spawn } from "node:child_process";
import { systemContext } from "@/lib/server/context";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { type DbHandle, getDb, getDbHandle, newPglite, openPglite, openPostgres, setDbHandle } from "@/db";
import { jobs, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { enqueueJob, enqueueJobs } from "@/lib/jobs/enqueue";
import { jobRegistry } from "@/lib/server/job-registry";
import { drainJobs, runJob } from "@/lib/jobs/runner";
import { claimDueJobs } from "@/lib/jobs/jobs-table";
import { INNGEST_LANES, startJobRunner } from "@/lib/jobs/local-runner";
import { jobsWith } from "@/tests/support/jobs";
import { JOB_LEASE_MS } from "@/lib/jobs/source";
import { newId } from "@/lib/platform/ids";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";
import { emit } from "@/tests/support/webhooks";
import { dropDatabase } from "@/db/drop-database";

const root = path.resolve(__dirname, "../..");

async function jobRow(id: number) {
  const [row] = await getDb().select().from(jobs).where(eq(jobs.id, id));
  return row;
}

describe("the job runner", () => {
  beforeEach(async () => {
    await getDb().delete(jobs);
  });

  it("claims due rows oldest first under a lease, and a claimed row is not claimed again until the lease runs out", async () => {
    const now = new Date();
    const later = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "2" }, runAt: new Date(now.getTime() - 1000) });
    const earlier = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "1" }, runAt: new Date(now.getTime() - 5000) });
    const future = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "3" }, runAt: new Date(now.getTime() + JOB_LEASE_MS - 10) });

    const claimed = await claimDueJobs(getDb(), { now });
    expect(claimed.map((j) => j.id)).toEqual([earlier, later]);
    expect(claimed[0]).toMatchObject({ kind: "message.send", payload: { messageId: "1" }, attempts: 1 });
    const row = await jobRow(earlier);
    expect(row.status).toBe("running");
    expect(row.lockedUntil?.getTime()).toBe(now.getTime() + JOB_LEASE_MS);

    // Only the row that became due meanwhile; the two claimed ones are still leased.
    expect((await claimDueJobs(getDb(), { now: new Date(now.getTime() + JOB_LEASE_MS - 1) })).map((j) => j.id)).toEqual([future]);
    const reclaimed = await claimDueJobs(getDb(), { now: new Date(now.getTime() + JOB_LEASE_MS + 1) });
    expect(reclaimed.map((j) => [j.id, j.attempts])).toEqual([
      [earlier, 2],
      [later, 2],
    ]);
  });

  it("respects the claim limit", async () => {
    await enqueueJobs(getDb(), Array.from({ length: 5 }, (_, n) => ({ kind: "message.send" as const, payload: { messageId: String(n) } })));
    expect(await claimDueJobs(getDb(), { limit: 2 })).toHaveLength(2);
    expect(await claimDueJobs(getDb(), { limit: 10 })).toHaveLength(3);
  });

  it("fails a job whose stored payload does not match its kind's schema for good, with the reason, without running its handler", async () => {
    const seen: string[] = [];
    const handlers = jobsWith({ "message.send": async (payload) => void seen.push(payload.messageId) });
    // Rows written outside enqueueJob (an older release, a hand edit): the runner is their only check.
    const now = new Date();
    const rows = await getDb()
      .insert(jobs)
      .values([
        { kind: "message.send", payload: { messageId: 42 }, status: "pending" as const, runAt: now, createdAt: now, updatedAt: now },
        { kind: "message.send", payload: {}, status: "pending" as const, runAt: now, createdAt: now, updatedAt: now },
        { kind: "message.send", payload: { messageId: "msg_ok" }, status: "pending" as const, runAt: now, createdAt: now, updatedAt: now },
      ])
      .returning({ id: jobs.id });
    await drainJobs(systemContext(), handlers, { now });
    const [wrongType, missing, fine] = await Promise.all(rows.map((row) => jobRow(row.id)));
    expect(wrongType).toMatchObject({ status: "failed", attempts: 1, lockedUntil: null, lastError: expect.stringMatching(/^invalid message\.send payload: messageId: /) });
    expect(missing).toMatchObject({ status: "failed", attempts: 1, lastError: expect.stringMatching(/^invalid message\.send payload: messageId: /) });
    expect(fine).toMatchObject({ status: "done", attempts: 1 });
    expect(seen).toEqual(["msg_ok"]);
    // Failed for good: a later pass (or a restart) does not run it again.
    expect(await drainJobs(systemContext(), handlers, { now: new Date(now.getTime() + 24 * 3600_000) })).toBe(0);
    expect((await jobRow(rows[0].id)).attempts).toBe(1);
  });

  it("records each outcome: done, run again later, failed for good, thrown (backoff), no handler", async () => {
    const retryAt = new Date(Date.now() + 90_000);
    const handlers = jobsWith({
      "message.send": async (payload) => {
        if (payload.messageId === "retry") return { retryAt, error: "not yet" };
        if (payload.messageId === "fail") return { failed: "refused by the network" };
        if (payload.messageId === "throw") throw new Error("database hiccup");
      },
    });
    const ids = await enqueueJobs(getDb(), [
      { kind: "message.send", payload: { messageId: "done" } },
      { kind: "message.send", payload: { messageId: "retry" } },
      { kind: "message.send", payload: { messageId: "fail" } },
      { kind: "message.send", payload: { messageId: "throw" } },
      { kind: "message.auto-reply", payload: { accountId: "acc_1", conversationId: "conv_1", messageId: "msg_1" } },
    ]);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const now = new Date();
    try {
      await drainJobs(systemContext(), handlers, { now });
    } finally {
      errors.mockRestore();
    }
    const [done, retry, fail, thrown, orphan] = await Promise.all(ids.map(jobRow));
    expect(done).toMatchObject({ status: "done", lockedUntil: null, lastError: null, attempts: 1 });
    expect(retry).toMatchObject({ status: "pending", runAt: retryAt, lastError: "not yet", lockedUntil: null });
    expect(fail).toMatchObject({ status: "failed", lastError: "refused by the network" });
    expect(thrown).toMatchObject({ status: "pending", lastError: "database hiccup" });
    expect(thrown.runAt.getTime()).toBe(now.getTime() + 60_000);
    expect(orphan).toMatchObject({ status: "failed", lastError: "no handler for message.auto-reply" });
  });

  it("gives up on a job that keeps throwing after 10 runs, backing off each time", async () => {
    const id = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "msg_1" } });
    const handlers = jobsWith({ "message.send": async () => Promise.reject(new Error("always")) });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const runAts: number[] = [];
    try {
      let clock = Date.now();
      for (let i = 0; i < 10; i++) {
        const row = await jobRow(id);
        clock = Math.max(clock, row.runAt.getTime());
        await drainJobs(systemContext(), handlers, { now: new Date(clock), maxRounds: 1 });
        runAts.push((await jobRow(id)).runAt.getTime() - clock);
      }
    } finally {
      errors.mockRestore();
    }
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: 10, lastError: "always" });
    expect(runAts.slice(0, 4)).toEqual([60_000, 120_000, 240_000, 480_000]);
  });

  it("does not let a worker whose lease ran out overwrite the outcome of the worker that took the row over", async () => {
    const id = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "msg_1" } });
    const now = new Date();
    const [slow] = await claimDueJobs(getDb(), { now });
    const [fast] = await claimDueJobs(getDb(), { now: new Date(now.getTime() + JOB_LEASE_MS + 1) });
    await runJob(systemContext(), fast, jobsWith({ "message.send": async () => ({ failed: "decided by the second worker" }) }));
    await runJob(systemContext(), slow, jobsWith({ "message.send": async () => undefined }));
    expect(await jobRow(id)).toMatchObject({ status: "failed", lastError: "decided by the second worker" });
  });

  it("never hands one row to two concurrent claimers (FOR UPDATE SKIP LOCKED)", async () => {
    const ids = await enqueueJobs(getDb(), Array.from({ length: 40 }, (_, n) => ({ kind: "message.send" as const, payload: { messageId: String(n) } })));
    const batches = await Promise.all(Array.from({ length: 4 }, () => claimDueJobs(getDb(), { limit: 15 })));
    const claimed = batches.flat().map((j) => Number(j.id));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort((x, y) => x - y)).toEqual(ids);
  });

  it("runs work as soon as it is woken, at most `concurrency` at a time, and waits for jobs in flight on stop", async () => {
    let running = 0;
    let peak = 0;
    const finished: number[] = [];
    const handlers = jobsWith({
      "message.send": async (payload) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 50));
        running--;
        finished.push(Number(payload.messageId));
      },
    });
    const runner = startJobRunner({ system: systemContext(), jobs: handlers, pollMs: 60_000, concurrency: 3 });
    try {
      await new Promise((r) => setTimeout(r, 50));
      await enqueueJobs(getDb(), Array.from({ length: 7 }, (_, n) => ({ kind: "message.send" as const, payload: { messageId: String(n) } })));
      runner.wake();
      await vi.waitFor(() => expect(finished.length).toBeGreaterThanOrEqual(1), { timeout: 5000 });
    } finally {
      await runner.stop();
    }
    expect(peak).toBeLessThanOrEqual(3);
    const rows = await getDb().select().from(jobs);
    // Whatever was started finished and was recorded; nothing is left running.
    expect(rows.filter((r) => r.status === "running")).toEqual([]);
    expect(rows.filter((r) => r.status === "done").length).toBe(finished.length);
  });
});

describe("the Inngest relay's lanes", () => {
  beforeEach(async () => {
    await getDb().delete(jobs);
  });

  it("gives the deliveries' relay rows the webhook lane's caps, and wakes only the lanes a commit names", async () => {
    const { account } = await createTestAccount();
    let running = 0;
    let peak = 0;
    let others = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const handlers = jobsWith({
      "webhook.deliver": async () => {
        running++;
        peak = Math.max(peak, running);
        await released;
        running--;
      },
      "conversation.wake": async () => void others++,
    });
    // One minute between polls: only wake-ups make the lanes claim.
    const runner = startJobRunner({ system: systemContext(), jobs: handlers, pollMs: 60_000, lanes: INNGEST_LANES });
    try {
      await new Promise((r) => setTimeout(r, 100));
      // 20 relay rows of one account, each for its own endpoint: more than the background lane's 16 per account.
      await enqueueJobs(
        getDb(),
        Array.from({ length: 20 }, (_, n) => ({ kind: "webhook.deliver" as const, accountId: account.id, payload: { deliveryId: `dlv_${n}`, webhookId: `wh_${n}` } })),
      );
      await enqueueJob(getDb(), { kind: "conversation.wake", accountId: account.id, payload: { accountId: account.id, conversationId: "conv_1" } });
      runner.wake("webhook.deliver");
      await vi.waitFor(() => expect(peak).toBe(20), { timeout: 5000 });
      // The background lane was not woken by a wake-up that named only the relay's kind.
      expect(others).toBe(0);
      runner.wake("conversation.wake");
      await vi.waitFor(() => expect(others).toBe(1), { timeout: 5000 });
    } finally {
      release();
      await runner.stop();
    }
  });
});

describe("the job runner's wake-ups", () => {
  beforeEach(async () => {
    await getDb().delete(jobs);
  });

  it("does not lose a wake that arrives while a claim is under way and finds nothing", async () => {
    // The claim's answer is computed, then held back: a job committed meanwhile is not in it.
    const real = getDb();
    let hold: Promise<void> | undefined;
    let claims = 0;
    const db = new Proxy(real, {
      get(target, key, receiver) {
        if (key !== "execute") return Reflect.get(target, key, receiver);
        return async (...args: Parameters<typeof real.execute>) => {
          const result = await target.execute(...args);
          if (claims++ === 0) await (hold = new Promise((r) => setTimeout(r, 150)));
          return result;
        };
      },
    });
    const ran: number[] = [];
    const handlers = jobsWith({ "message.send": async (payload) => void ran.push(Number(payload.messageId)) });
    const runner = startJobRunner({ system: { ...systemContext(), db }, jobs: handlers, pollMs: 60_000, lanes: [{ name: "sends", kinds: ["message.send"], concurrency: 4 }] });
    try {
      await vi.waitFor(() => expect(hold).toBeDefined());
      await enqueueJob(real, { kind: "message.send", payload: { messageId: "1" } });
      runner.wake();
      await vi.waitFor(() => expect(ran).toEqual([1]), { timeout: 3000 });
    } finally {
      await runner.stop();
    }
  });
});

describe("a crash in the middle of a webhook attempt (kill -9)", () => {
  let receiver: WebhookReceiver;
  let restoreEnv: () => void;
  beforeAll(async () => {
    restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "5000" });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    restoreEnv();
  });

  /** A database both this process and the worker process can open: a PGlite folder, or a PostgreSQL database. */
  async function sharedDatabase() {
    const pgTemplate = inject("postgresTemplate");
    if (pgTemplate) {
      const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
      const name = `chorus_crash_${randomBytes(5).toString("hex")}`;
      await admin.unsafe(`create database ${name} template ${pgTemplate}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      return {
        env: { DATABASE_URL: url.toString(), PGLITE_DIR: undefined },
        open: async () => openPostgres(url.toString(), { max: 3 }),
        cleanup: async () => {
          await dropDatabase(admin, name);
          await admin.end();
        },
      };
    }
    const dir = mkdtempSync(path.join(tmpdir(), "chorus-crash-"));
    let migrated = false;
    return {
      env: { PGLITE_DIR: dir, DATABASE_URL: undefined },
      open: async () => {
        const handle = openPglite(newPglite(dir));
        if (!migrated) {
          await handle.migrate();
          migrated = true;
        }
        return handle;
      },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }

  async function using<T>(handle: DbHandle, fn: () => Promise<T>): Promise<T> {
    const previous = getDbHandle();
    setDbHandle(handle);
    try {
      return await fn();
    } finally {
      setDbHandle(previous);
    }
  }

  it("loses nothing: a later runner sends the same attempt again, with the same event id", async () => {
    const shared = await sharedDatabase();
    let worker: ChildProcess | undefined;
    try {
      // Seed: an active webhook at the receiver and one event, committed with its delivery row and job.
      let handle = await shared.open();
      const { event, webhookId } = await using(handle, async () => {
        const { account } = await createTestAccount();
        const webhookId = newId("webhook");
        await getDb().insert(webhooks).values({ id: webhookId, accountId: account.id, url: receiver.url, events: ["*"], secret: "crash-test-secret-0123", status: "active" });
        return { event: await emit(account.id, "conversation.created", { conversation: { id: "conv_1" } }), webhookId };
      });
      await handle.close();

      // The worker process claims the job and starts the attempt; the receiver holds it and the worker is killed.
      receiver.respond(() => ({ hang: true }));
      const restore = setEnv({ ...shared.env, WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
      try {
        // A server process resolves "server-only" as the server bundle does (its react-server export is empty).
        worker = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["--conditions=react-server", "tests/support/delivery-worker.ts"], { cwd: root, stdio: "pipe" });
      } finally {
        restore();
      }
      let output = "";
      worker.stdout?.on("data", (d) => (output += d));
      worker.stderr?.on("data", (d) => (output += d));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => worker!.on("exit", (_code, signal) => resolve(signal)));
      await receiver.waitForDeliveries(1, 60_000).catch((error) => {
        throw new Error(`${error.message}; worker output: ${output}`);
      });
      worker.kill("SIGKILL");
      expect(await exited).toBe("SIGKILL");

      const first = receiver.deliveries()[0];
      expect(first.headers["x-service-event-id"]).toBe(event.id);

      handle = await shared.open();
      await using(handle, async () => {
        const [delivery] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
        expect(delivery.status).toBe("pending");
        // The delivery row is its own job: still claimed by the dead worker, and no jobs row.
        expect(delivery.lockedUntil).toBeInstanceOf(Date);
        expect(delivery.claims).toBe(1);
        expect(await getDb().select().from(jobs).where(eq(jobs.kind, "webhook.deliver"))).toEqual([]);
        const unfinished = await getDb().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
        expect(unfinished.map((a) => [a.attempt, a.status])).toEqual([[1, "pending"]]);

        // While the dead worker's lease lasts, nobody takes the row.
        receiver.respond(() => ({ status: 200, body: "ok" }));
        expect(await drainJobs(systemContext(), jobRegistry)).toBe(0);

        // A runner started later resumes it.
        const ran = await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + JOB_LEASE_MS + 1000) });
        expect(ran).toBe(1);
        const received = receiver.deliveries();
        expect(received).toHaveLength(2);
        expect(received[1].headers["x-service-event-id"]).toBe(event.id);
        expect(received[1].headers["x-service-delivery-id"]).toBe(delivery.id);
        expect(received[1].headers["x-service-delivery-attempt"]).toBe("1");
        expect(received[1].raw).toBe(first.raw);
        expect(JSON.parse(received[1].raw).id).toBe(event.id);

        const [after] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
        expect(after).toMatchObject({ status: "succeeded", attempts: 1 });
        const attempts = await getDb().select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, [delivery.id]));
        expect(attempts.map((a) => [a.attempt, a.status])).toEqual([[1, "succeeded"]]);
        expect(after.lockedUntil).toBeNull();
        expect(after.claims).toBe(2);
      });
      await handle.close();
    } finally {
      if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill("SIGKILL");
      receiver.respond(() => ({ status: 200, body: "ok" }));
      await shared.cleanup();
    }
  }, 120_000);
});
