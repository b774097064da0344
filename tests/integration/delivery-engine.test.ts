import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { events, jobs, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { enqueueJob, enqueueJobs } from "@/lib/jobs/enqueue";
import { jobRegistry } from "@/lib/server/job-registry";
import { jobsWith } from "@/tests/support/jobs";
import { drainJobs } from "@/lib/jobs/runner";
import { claimDueJobs } from "@/lib/jobs/jobs-table";
import { startJobRunner } from "@/lib/jobs/local-runner";
import { releaseAllStaleClaims } from "@/lib/jobs/sources";
import { DELIVERIES_SOURCE, JOB_LEASE_MS } from "@/lib/jobs/source";
import { claimDueDeliveries } from "@/lib/jobs/delivery-queue";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";
import { verifyDelivery } from "@/tests/support/webhook-verifier";
import { deliveriesOf as allDeliveriesOf, emit, registerWebhook, webhookRow } from "@/tests/support/webhooks";
import { systemContext } from "@/lib/server/context";

let a: WebhookReceiver;
let b: WebhookReceiver;
let restoreEnv: () => void;

beforeAll(async () => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "20000", WEBHOOK_RETRY_SCHEDULE: "0,0,0,0" });
  a = await startReceiver();
  b = await startReceiver();
});
afterAll(async () => {
  a.release();
  b.release();
  await a.close();
  await b.close();
  restoreEnv();
});
beforeEach(async () => {
  // Work queued by earlier tests is forgotten: jobs, and deliveries still due (each is its own job).
  await getDb().delete(jobs);
  await getDb().update(webhookDeliveries).set({ nextAttemptAt: null, lockedUntil: null }).where(eq(webhookDeliveries.status, "pending"));
  a.respond(() => ({ status: 200, body: "ok" }));
  b.respond(() => ({ status: 200, body: "ok" }));
  a.requests.length = 0;
  b.requests.length = 0;
});

const deliveriesOf = async (webhookId: string) => (await allDeliveriesOf(webhookId)).filter((d) => d.eventType !== "webhook.verified");
const drainBatched = (now?: Date) => drainJobs(systemContext(), jobRegistry, { batches: true, now });
const attemptsOf = (deliveryIds: string[]) => getDb().select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds));

describe("recording an event", () => {
  it("writes the event row and one delivery per subscribed endpoint in the caller's transaction; a rollback keeps neither", async () => {
    const { account, adminToken } = await createTestAccount();
    const one = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const two = await registerWebhook(adminToken, { url: b.url, events: ["*"] });
    await registerWebhook(adminToken, { url: b.url, events: ["conversation.created"] });
    const event = await emit(account.id);
    for (const hook of [one, two]) expect((await deliveriesOf(hook.id)).map((d) => [d.eventId, d.status])).toEqual([[event.id, "pending"]]);
    expect(await getDb().select({ id: events.id }).from(events).where(eq(events.id, event.id))).toHaveLength(1);

    const rolledBack = await getDb()
      .transaction(async (tx) => {
        const recorded = await recordEvent({ ...systemContext(), db: tx }, { accountId: account.id, type: "message.received", data: { n: 2 } });
        tx.rollback();
        return recorded;
      })
      .catch((error: Error) => error);
    expect(rolledBack).toBeInstanceOf(Error);
    const rows = await getDb()
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.accountId, account.id), eq(events.type, "message.received")));
    expect(rows.map((r) => r.id)).toEqual([event.id]);
    for (const hook of [one, two]) expect(await deliveriesOf(hook.id)).toHaveLength(1);
  });

  it("fails with the event row's own error when it cannot be written (not the fan-out's), and writes nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    // A NUL cannot be stored in jsonb: the event row fails, for an account whose endpoint would get a delivery.
    const unstorable = { message: { id: "msg_nul", text: "a\u0000b" } };
    const failures = [
      await getDb()
        .transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId: account.id, type: "message.received", data: unstorable }))
        .catch((failure: unknown) => failure),
      // Outside a transaction too (each statement its own commit): the fan-out never runs.
      await recordEvent(systemContext(), { accountId: account.id, type: "message.received", data: unstorable }).catch((failure: unknown) => failure),
    ];
    for (const error of failures) {
      const cause = (error as { cause?: { code?: string } }).cause ?? (error as { code?: string });
      expect(cause.code).toBe("22P05");
    }
    const rows = await getDb()
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.accountId, account.id), eq(events.type, "message.received")));
    expect(rows).toEqual([]);
    expect(await deliveriesOf(hook.id)).toEqual([]);
    // The same account records the next event with its delivery as usual.
    const next = await recordEvent(systemContext(), { accountId: account.id, type: "message.received", data: { n: 1 } });
    expect((await deliveriesOf(hook.id)).map((d) => d.eventId)).toEqual([next.id]);
  });
});

describe("deliveries many at a time", () => {
  it("sends each event once per subscriber as attempt 1, signed, and records every outcome", async () => {
    const { account, adminToken } = await createTestAccount();
    const one = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const two = await registerWebhook(adminToken, { url: b.url, events: ["message.received"] });
    const events = [];
    for (let i = 0; i < 6; i++) events.push(await emit(account.id));
    expect(await drainBatched()).toBe(12);
    for (const [receiver, hook] of [
      [a, one],
      [b, two],
    ] as const) {
      const received = receiver.deliveries();
      expect(received.map((r) => r.headers["x-service-event-id"]).sort()).toEqual(events.map((e) => e.id).sort());
      for (const request of received) {
        expect(request.headers["x-service-delivery-attempt"]).toBe("1");
        expect(verifyDelivery(request, hook.secret)).toEqual([]);
      }
      const deliveries = await deliveriesOf(hook.id);
      expect(deliveries.map((d) => [d.status, d.attempts, d.nextAttemptAt])).toEqual(events.map(() => ["succeeded", 1, null]));
      const attempts = await attemptsOf(deliveries.map((d) => d.id));
      expect(attempts.map((x) => [x.attempt, x.status, x.responseStatus])).toEqual(events.map(() => [1, "succeeded", 200]));
    }
    const rows = await getDb().select().from(jobs).where(eq(jobs.accountId, account.id));
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => "done"));
  });

  it("follows the retry schedule, and after the fifth failure fails the delivery and tells the other subscribers", async () => {
    const { account, adminToken } = await createTestAccount();
    const failing = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const watcher = await registerWebhook(adminToken, { url: b.url, events: ["webhook.failed"] });
    a.respond(() => ({ status: 500, body: "boom" }));
    const restore = setEnv({ WEBHOOK_RETRY_SCHEDULE: "60,60,60,60" });
    const event = await emit(account.id);
    try {
      await drainBatched();
    } finally {
      restore();
    }
    const [delivery] = await deliveriesOf(failing.id);
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastError: "unexpected status 500" });
    // The delivery row is its own job: the claim that ran attempt 1 has ended, and no jobs row exists.
    expect(delivery).toMatchObject({ lockedUntil: null, claims: 1 });
    expect(await getDb().select().from(jobs).where(eq(jobs.accountId, account.id))).toEqual([]);
    expect(delivery.nextAttemptAt!.getTime() - delivery.updatedAt.getTime()).toBe(60_000);
    // The rest on a schedule of 0 s: each retry is due as soon as the previous attempt is recorded.
    await drainBatched(new Date(Date.now() + 61_000));
    expect(a.deliveries().map((r) => r.headers["x-service-delivery-attempt"])).toEqual(["1", "2", "3", "4", "5"]);
    const [after] = await deliveriesOf(failing.id);
    expect(after).toMatchObject({ status: "failed", attempts: 5, nextAttemptAt: null });
    const attempts = await attemptsOf([delivery.id]);
    expect(attempts.map((x) => [x.attempt, x.status]).sort()).toEqual([1, 2, 3, 4, 5].map((n) => [n, "failed"]));
    const notices = b.deliveries().filter((r) => r.json?.type === "webhook.failed");
    expect(notices).toHaveLength(1);
    expect(notices[0].json.data).toMatchObject({ webhook_id: failing.id, event_id: event.id, delivery_id: delivery.id, attempts: 5 });
    expect((await webhookRow(failing.id)).consecutiveFailures).toBe(1);
    expect(watcher.id).toBeTruthy();
  });

  it("stops the deliveries of an endpoint disabled while their attempts were in flight, and records every answer", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    // Every answer leaves once the endpoint is disabled (committed).
    let disabling: Promise<unknown> | undefined;
    a.respond(async () => {
      disabling ??= Promise.resolve(getDb().update(webhooks).set({ status: "disabled", statusReason: "disabled by an admin" }).where(eq(webhooks.id, hook.id)));
      await disabling;
      return { status: 500, body: "boom" };
    });
    for (let i = 0; i < 3; i++) await emit(account.id);
    expect(await drainBatched()).toBe(3);
    expect(a.deliveries()).toHaveLength(3);
    const deliveries = await deliveriesOf(hook.id);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null, lockedUntil: null });
      expect(delivery.lastError).toMatch(/^stopped: the webhook is disabled; last error: unexpected status 500/);
    }
    const attempts = await attemptsOf(deliveries.map((d) => d.id));
    expect(attempts.map((x) => [x.attempt, x.status, x.responseStatus])).toEqual(deliveries.map(() => [1, "failed", 500]));
  });

  it("leaves an attempt that another process took over while its answer was on the way to that process", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    await emit(account.id);
    const [delivery] = await deliveriesOf(hook.id);
    // While attempt 1 is in flight, another process takes it over: it writes the attempt again
    // (a new row, as the attempt path does) and sends it itself.
    const otherAttemptId = newId("attempt");
    a.respond(async () => {
      await getDb().transaction(async (tx) => {
        const [mine] = await tx.delete(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id)).returning();
        await tx.insert(webhookAttempts).values({ ...mine, id: otherAttemptId, attemptedAt: new Date() });
      });
      return { status: 200, body: "ok" };
    });
    const startedAt = Date.now();
    expect(await drainBatched()).toBe(1);
    expect(a.deliveries()).toHaveLength(1);
    // Nothing of this answer is written: the attempt and the delivery are the other process's.
    const attempts = await attemptsOf([delivery.id]);
    expect(attempts.map((x) => [x.id, x.attempt, x.status, x.responseStatus])).toEqual([[otherAttemptId, 1, "pending", null]]);
    const [after] = await deliveriesOf(hook.id);
    expect(after).toMatchObject({ status: "pending", attempts: 0, lockedUntil: null, completedAt: null });
    // Due again only once the other process's attempt would be presumed dead (timeout 20 s + 15 s).
    expect(after.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(startedAt + 35_000);
  });

  it("disables the endpoint on 410 Gone", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    a.respond(() => ({ status: 410, body: "gone" }));
    await emit(account.id);
    await drainBatched();
    expect((await webhookRow(hook.id)).status).toBe("disabled");
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery.status).toBe("failed");
  });
});

describe("fair claims (one account's hanging receivers do not hold up another's)", () => {
  it("claims round-robin across accounts within the per-account and per-endpoint caps", async () => {
    const old = new Date(Date.now() - 60_000);
    const noisy = await enqueueJobs(
      getDb(),
      Array.from({ length: 30 }, (_, n) => ({ kind: "webhook.deliver" as const, accountId: undefined, payload: { deliveryId: `d${n}`, webhookId: `wh_noisy_${n % 2}` }, runAt: old })),
    );
    const { account: quiet } = await createTestAccount();
    const [quietJob] = await enqueueJobs(getDb(), [{ kind: "webhook.deliver", accountId: quiet.id, payload: { deliveryId: "q1", webhookId: "wh_quiet" } }]);

    const claimed = await claimDueJobs(getDb(), { limit: 10, perGroup: 3 });
    // Three per endpoint of the noisy account, and the quiet account's job although it is the newest.
    expect(claimed.map((j) => j.id)).toContain(quietJob);
    expect(claimed).toHaveLength(7);
    expect(claimed.filter((j) => j.group === "wh_noisy_0")).toHaveLength(3);

    // Round-robin: each account's oldest job before any account's second.
    await getDb().update(jobs).set({ status: "pending", lockedUntil: null });
    const two = await claimDueJobs(getDb(), { limit: 2 });
    expect(two.map((j) => j.id)).toEqual([noisy[0], quietJob]);

    // Jobs this process already runs count against the caps.
    await getDb().update(jobs).set({ status: "pending", lockedUntil: null }).where(inArray(jobs.id, noisy));
    await getDb().update(jobs).set({ status: "done" }).where(eq(jobs.id, quietJob));
    const capped = await claimDueJobs(getDb(), { limit: 10, perGroup: 3, busyGroups: { wh_noisy_0: 3, wh_noisy_1: 1 } });
    expect(capped.map((j) => j.group)).toEqual(["wh_noisy_1", "wh_noisy_1"]);
  });

  it("claims deliveries from their own rows the same way: round-robin, within the caps, each once until its lease runs out", async () => {
    const noisy = await createTestAccount();
    const quiet = await createTestAccount();
    const noisyHooks = [
      await registerWebhook(noisy.adminToken, { url: `${a.url}?n=0`, events: ["message.received"] }),
      await registerWebhook(noisy.adminToken, { url: `${a.url}?n=1`, events: ["message.received"] }),
    ];
    const quietHook = await registerWebhook(quiet.adminToken, { url: b.url, events: ["message.received"] });
    for (let i = 0; i < 15; i++) await emit(noisy.account.id);
    const old = new Date(Date.now() - 60_000);
    await getDb().update(webhookDeliveries).set({ nextAttemptAt: old }).where(inArray(webhookDeliveries.webhookId, noisyHooks.map((h) => h.id)));
    await emit(quiet.account.id);
    const [quietDelivery] = await deliveriesOf(quietHook.id);

    const claimed = await claimDueDeliveries(getDb(), { limit: 10, perGroup: 3 });
    // Three per endpoint of the noisy account, and the quiet account's delivery although it is the newest.
    expect(claimed.map((j) => j.id)).toContain(quietDelivery.id);
    expect(claimed).toHaveLength(7);
    expect(claimed.filter((j) => j.group === noisyHooks[0].id)).toHaveLength(3);
    expect(new Set(claimed.map((j) => j.accountId))).toEqual(new Set([noisy.account.id, quiet.account.id]));
    // Claimed rows are not due again while their lease lasts; the rest are.
    const rest = await claimDueDeliveries(getDb(), { limit: 100 });
    expect(rest).toHaveLength(24);
    expect(rest.some((j) => claimed.some((c) => c.id === j.id))).toBe(false);
    expect(await claimDueDeliveries(getDb(), { limit: 100, now: new Date(Date.now() + JOB_LEASE_MS - 1000) })).toEqual([]);
    const again = await claimDueDeliveries(getDb(), { limit: 100, now: new Date(Date.now() + JOB_LEASE_MS + 1000) });
    expect(again).toHaveLength(31);
    expect(again.every((j) => j.takeover && j.attempts === 2)).toBe(true);

    // Round-robin: each account's oldest delivery before any account's second.
    await getDb().update(webhookDeliveries).set({ lockedUntil: null }).where(inArray(webhookDeliveries.accountId, [noisy.account.id, quiet.account.id]));
    const two = await claimDueDeliveries(getDb(), { limit: 2 });
    expect(two.map((j) => j.accountId).sort()).toEqual([noisy.account.id, quiet.account.id].sort());

    // Deliveries this process already runs count against the caps.
    await getDb().update(webhookDeliveries).set({ lockedUntil: null }).where(eq(webhookDeliveries.accountId, noisy.account.id));
    await getDb().update(webhookDeliveries).set({ status: "succeeded" }).where(eq(webhookDeliveries.id, quietDelivery.id));
    const capped = await claimDueDeliveries(getDb(), { limit: 10, perGroup: 3, busyGroups: { [noisyHooks[0].id]: 3, [noisyHooks[1].id]: 1 } });
    expect(capped.map((j) => j.group)).toEqual([noisyHooks[1].id, noisyHooks[1].id]);
  });

  it("does not let one endpoint's backlog use up its account's places ahead of the account's other endpoints", async () => {
    const { account, adminToken } = await createTestAccount();
    const backlogged = await registerWebhook(adminToken, { url: `${a.url}?n=backlog`, events: ["message.received"] });
    const other = await registerWebhook(adminToken, { url: `${b.url}?n=other`, events: ["conversation.closed"] });
    for (let i = 0; i < 10; i++) await emit(account.id);
    await getDb().update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.now() - 60_000) }).where(eq(webhookDeliveries.webhookId, backlogged.id));
    await emit(account.id, "conversation.closed");
    const [newest] = await deliveriesOf(other.id);
    // Four places for the account, two per endpoint: the backlog takes two, the other endpoint's newest delivery one.
    const claimed = await claimDueDeliveries(getDb(), { limit: 10, perAccount: 4, perGroup: 2 });
    expect(claimed.filter((j) => j.group === backlogged.id)).toHaveLength(2);
    expect(claimed.map((j) => j.id)).toContain(newest.id);
  });

  it("keeps delivering another account's events and running sends while one account's receivers hang", async () => {
    const noisy = await createTestAccount();
    const quiet = await createTestAccount();
    const hooks = [];
    for (let i = 0; i < 4; i++) hooks.push(await registerWebhook(noisy.adminToken, { url: `${a.url}?n=${i}`, events: ["message.received"] }));
    await registerWebhook(quiet.adminToken, { url: b.url, events: ["message.received"] });
    a.respond(() => ({ hang: true }));
    let sends = 0;
    const handlers = jobsWith({ "message.send": async () => void sends++ }, jobRegistry);
    const runner = startJobRunner({
      system: systemContext(),
      jobs: handlers,
      batches: true,
      pollMs: 50,
      lanes: [
        { name: "sends", kinds: ["message.send"], concurrency: 2 },
        { name: "webhooks", source: DELIVERIES_SOURCE, kinds: null, concurrency: 8, perAccount: 4, perGroup: 2 },
      ],
    });
    try {
      for (let i = 0; i < 5; i++) await emit(noisy.account.id);
      runner.wake();
      await a.waitForDeliveries(4, 10_000);
      // Every webhook slot the noisy account may take is held by a hanging receiver now.
      const quietEvent = await emit(quiet.account.id);
      await enqueueJob(getDb(), { kind: "message.send", accountId: noisy.account.id, payload: { messageId: "msg_1" } });
      runner.wake();
      const [received] = await b.waitForDeliveries(1, 10_000);
      expect(received.headers["x-service-event-id"]).toBe(quietEvent.id);
      await vi.waitFor(() => expect(sends).toBe(1), { timeout: 10_000 });
      // The noisy account never had more than its cap in flight.
      expect(a.deliveries().length).toBe(4);
    } finally {
      a.respond(() => ({ status: 200, body: "ok" }));
      a.release();
      await runner.stop();
    }
  });
});

describe("a job whose process died runs again soon", () => {
  it("on PostgreSQL: a claim runs out 30 s after its last renewal, and the next claim knows it takes over", async () => {
    const id = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "msg_1" } });
    const now = new Date();
    await claimDueJobs(getDb(), { now });
    expect(JOB_LEASE_MS).toBeLessThanOrEqual(30_000);
    expect(await claimDueJobs(getDb(), { now: new Date(now.getTime() + 29_000) })).toEqual([]);
    const [again] = await claimDueJobs(getDb(), { now: new Date(now.getTime() + 30_001) });
    expect(again).toMatchObject({ id, attempts: 2, takeover: true });
  });

  it("a live runner renews the lease of a job that runs long (the heartbeat)", async () => {
    const id = await enqueueJob(getDb(), { kind: "message.send", payload: { messageId: "msg_1" } });
    let release: () => void = () => {};
    let started = false;
    const handlers = jobsWith({
      "message.send": () =>
        new Promise<void>((resolve) => {
          started = true;
          release = resolve;
        }),
    });
    const runner = startJobRunner({ system: systemContext(), jobs: handlers, pollMs: 1000, concurrency: 1, heartbeatMs: 50 });
    try {
      await vi.waitFor(() => expect(started).toBe(true), { timeout: 5000 });
      const [first] = await getDb().select().from(jobs).where(eq(jobs.id, id));
      await vi.waitFor(
        async () => {
          const [row] = await getDb().select().from(jobs).where(eq(jobs.id, id));
          expect(row.lockedUntil!.getTime()).toBeGreaterThan(first.lockedUntil!.getTime());
        },
        { timeout: 5000 },
      );
    } finally {
      release();
      await runner.stop();
    }
    const [row] = await getDb().select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "done", lockedUntil: null });
  });

  it("on the embedded database: stale claims are released at start and the interrupted attempt is sent again at once", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const event = await emit(account.id);
    const [delivery] = await deliveriesOf(hook.id);
    // The process that died: it claimed the delivery and wrote attempt 1 just before sending it.
    const [claimed] = await claimDueDeliveries(getDb());
    expect(claimed).toMatchObject({ id: delivery.id, kind: "webhook.deliver", payload: { deliveryId: delivery.id }, attempts: 1, takeover: false });
    await getDb().insert(webhookAttempts).values({
      id: newId("attempt"),
      accountId: account.id,
      webhookId: hook.id,
      deliveryId: delivery.id,
      eventId: event.id,
      eventType: "message.received",
      attempt: 1,
      status: "pending",
    });
    expect(await drainBatched()).toBe(0);

    // The restart.
    expect(await releaseAllStaleClaims(getDb())).toBe(1);
    expect(await drainBatched()).toBe(1);
    const received = a.deliveries();
    expect(received).toHaveLength(1);
    expect(received[0].headers["x-service-event-id"]).toBe(event.id);
    expect(received[0].headers["x-service-delivery-attempt"]).toBe("1");
    const [after] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    expect(after).toMatchObject({ status: "succeeded", attempts: 1 });
    const attempts = await attemptsOf([delivery.id]);
    expect(attempts.map((x) => [x.attempt, x.status])).toEqual([[1, "succeeded"]]);
  });
});
