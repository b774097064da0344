import { and, eq, ne } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as logs from "@/app/v1/webhooks/[id]/logs/route";
import * as retry from "@/app/v1/webhooks/[id]/deliveries/[delivery_id]/retry/route";
import * as item from "@/app/v1/webhooks/[id]/route";
import { getDb } from "@/db";
import { jobs, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { jobRegistry } from "@/lib/server/job-registry";
import { startJobRunner } from "@/lib/jobs/local-runner";
import { attemptDelivery } from "@/lib/webhooks/attempt-delivery";
import { sendSigned } from "@/lib/webhooks/send";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";
import { verifyDelivery } from "@/tests/support/webhook-verifier";
import { deliveriesOf, drain, emit, registerWebhook, webhookRow } from "@/tests/support/webhooks";
import { systemContext } from "@/lib/server/context";

let a: WebhookReceiver;
let b: WebhookReceiver;
let restoreEnv: () => void;

beforeAll(async () => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_RETRY_SCHEDULE: undefined });
  [a, b] = await Promise.all([startReceiver({ path: "/a" }), startReceiver({ path: "/b" })]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  restoreEnv();
});
afterEach(async () => {
  // Each test starts with no webhooks and no due work left over from the previous one.
  await getDb().delete(webhooks);
  await getDb().delete(jobs);
  for (const r of [a, b]) {
    r.respond(() => ({ status: 200, body: "ok" }));
    r.requests.length = 0;
  }
});

const HOUR = 3600_000;
const eventDeliveries = async (webhookId: string) => (await deliveriesOf(webhookId)).filter((d) => d.eventType !== "webhook.verified");
const logsOf = async (token: string, id: string, query = "") =>
  (await call(logs.GET, { path: `/v1/webhooks/${id}/logs${query}`, token, params: { id } })).body;

describe("delivery", () => {
  it("sends each event to each active subscribed webhook, signed, with the documented headers and envelope", async () => {
    const { account, adminToken } = await createTestAccount();
    const subscribed = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const everything = await registerWebhook(adminToken, { url: b.url, events: ["*"], secret: "whsec_YS1jYWxsZXItY2hvc2VuLXNlY3JldCE=" });
    const other = await registerWebhook(adminToken, { url: `${b.url}/other`, events: ["user.created"] });
    const disabled = await registerWebhook(adminToken, { url: `${b.url}/disabled`, events: ["*"] });
    await call(item.PATCH, { method: "PATCH", path: `/v1/webhooks/${disabled.id}`, token: adminToken, params: { id: disabled.id }, body: { status: "disabled" } });
    a.requests.length = 0;
    b.requests.length = 0;

    const event = await emit(account.id, "message.received", { message: { id: "msg_1", text: "¡Hola! ✓" } });
    await drain();

    expect(a.requests).toHaveLength(1);
    expect(b.requests.map((r) => r.path)).toEqual(["/b"]);
    expect(await eventDeliveries(other.id)).toEqual([]);
    expect(await eventDeliveries(disabled.id)).toEqual([]);

    for (const [request, hook] of [
      [a.requests[0], subscribed],
      [b.requests[0], everything],
    ] as const) {
      expect(verifyDelivery(request, hook.secret)).toEqual([]);
      expect(JSON.parse(request.raw)).toEqual({ id: event.id, type: "message.received", created_at: event.created_at, data: { message: { id: "msg_1", text: "¡Hola! ✓" } } });
      const [delivery] = await eventDeliveries(hook.id);
      expect(request.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": "Chorus-Webhooks/1",
        "x-service-event-id": event.id,
        "x-service-event-type": "message.received",
        "x-service-delivery-id": delivery.id,
        "x-service-delivery-attempt": "1",
        "webhook-id": event.id,
      });
      expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    }
    // A wrong secret does not verify: the check above can fail.
    expect(verifyDelivery(a.requests[0], everything.secret)).not.toEqual([]);
  });

  it("never fans webhook.verified out to other subscribers", async () => {
    const { adminToken } = await createTestAccount();
    await registerWebhook(adminToken, { url: a.url, events: ["*"] });
    a.requests.length = 0;
    await registerWebhook(adminToken, { url: b.url, events: ["*"] });
    await drain();
    expect(a.requests).toEqual([]);
    expect(b.requests.map((r) => r.json.type)).toEqual(["webhook.verified"]);
  });

  it("runs the documented ladder: 60 s, 5 min, 15 min, 1 h after each failure, then fails the delivery", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    a.respond(() => ({ status: 503, body: "busy" }));
    await emit(account.id);
    await drain();
    expect(a.deliveries()).toHaveLength(1);
    const expected = [60, 300, 900, 3600];
    for (let n = 1; n <= 4; n++) {
      const [latest] = (await logsOf(adminToken, hook.id)).data;
      expect(latest.attempt).toBe(n);
      const waited = Date.parse(latest.next_attempt_at) - Date.parse(latest.attempted_at) - latest.duration_ms;
      expect(waited).toBeGreaterThanOrEqual(expected[n - 1] * 1000);
      expect(waited).toBeLessThan(expected[n - 1] * 1000 + 1000);
      // One second early nothing happens; on time, the next attempt goes out.
      const due = Date.parse(latest.next_attempt_at) - Date.now();
      await drain(due - 1000);
      expect(a.deliveries()).toHaveLength(n);
      await drain(due + 10);
      expect(a.deliveries()).toHaveLength(n + 1);
      expect(a.deliveries()[n].headers["x-service-delivery-attempt"]).toBe(String(n + 1));
    }
    const [delivery] = await eventDeliveries(hook.id);
    expect(delivery).toMatchObject({ status: "failed", attempts: 5, nextAttemptAt: null, lastError: "unexpected status 503" });
    await drain(5 * HOUR);
    expect(a.deliveries()).toHaveLength(5);
    // Every attempt carried the same event and the same bytes.
    expect(new Set(a.deliveries().map((r) => r.raw)).size).toBe(1);
    expect(new Set(a.deliveries().map((r) => r.headers["x-service-event-id"])).size).toBe(1);
    expect((await webhookRow(hook.id)).consecutiveFailures).toBe(1);
  });

  it("retries on a shortened schedule with the real runner, measured on the receiver's clock, then tells the other subscribers", async () => {
    const restore = setEnv({ WEBHOOK_RETRY_SCHEDULE: "0.5,1,0.5,1" });
    const runner = startJobRunner({ system: systemContext(), jobs: jobRegistry, pollMs: 20 });
    try {
      const { account, adminToken } = await createTestAccount();
      const failing = await registerWebhook(adminToken, { url: a.url, events: ["message.received", "webhook.failed"] });
      const watcher = await registerWebhook(adminToken, { url: b.url, events: ["webhook.failed"] });
      a.respond(() => ({ status: 500, body: "boom" }));
      const event = await emit(account.id);
      runner.wake();
      const attempts = await a.waitForDeliveries(5, 15_000);
      const received = await b.waitForDeliveries(1, 5_000);

      const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i].at);
      const schedule = [500, 1000, 500, 1000];
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(schedule[i]);
        expect(gap).toBeLessThan(schedule[i] + 700);
      });
      expect(attempts.map((r) => r.headers["x-service-delivery-attempt"])).toEqual(["1", "2", "3", "4", "5"]);

      const [delivery] = await eventDeliveries(failing.id);
      expect(received[0].json).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: "webhook.failed",
        created_at: expect.any(String),
        data: { webhook_id: failing.id, event_id: event.id, delivery_id: delivery.id, attempts: 5, last_error: "unexpected status 500" },
      });
      expect(verifyDelivery(received[0], watcher.secret)).toEqual([]);
      // The failing webhook is not told about its own failure.
      await new Promise((r) => setTimeout(r, 200));
      expect(a.deliveries().filter((r) => r.json.type === "webhook.failed")).toEqual([]);
      expect(a.deliveries()).toHaveLength(5);
    } finally {
      await runner.stop();
      restore();
    }
  });

  it("counts a late answer as a failed attempt (WEBHOOK_TIMEOUT_MS)", async () => {
    const restore = setEnv({ WEBHOOK_TIMEOUT_MS: "300" });
    try {
      const { account, adminToken } = await createTestAccount();
      const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
      a.respond(() => ({ status: 200, body: "too late", delayMs: 3000 }));
      await emit(account.id);
      await drain();
      const [attempt] = (await logsOf(adminToken, hook.id, "?status=failed")).data;
      expect(attempt).toMatchObject({ attempt: 1, status: "failed", response_status: null, error: "timeout after 300 ms" });
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(295);
      expect(attempt.duration_ms).toBeLessThan(2500);
      const [delivery] = await eventDeliveries(hook.id);
      expect(delivery.status).toBe("pending");
    } finally {
      restore();
    }
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    b.requests.length = 0;
    a.respond(() => ({ status: 307, headers: { Location: b.url }, body: "moved" }));
    await emit(account.id);
    await drain();
    expect(b.requests).toEqual([]);
    const [attempt] = (await logsOf(adminToken, hook.id)).data;
    expect(attempt).toMatchObject({ status: "failed", response_status: 307, error: "redirect not followed", response_body: "moved" });
  });

  it.each([
    [400, "bad request"],
    [401, "who are you"],
    [404, "not here"],
    [429, "slow down"],
    [500, "x".repeat(5000)],
    [502, "bad gateway"],
  ])("logs a %i answer as failed with the first 2 KiB of the body", async (status, body) => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    a.respond(() => ({ status, body }));
    await emit(account.id);
    await drain();
    const [attempt] = (await logsOf(adminToken, hook.id)).data;
    expect(attempt).toMatchObject({ status: "failed", response_status: status, response_body: body.slice(0, 2048), error: `unexpected status ${status}` });
    expect(attempt.next_attempt_at).not.toBeNull();
    expect((await webhookRow(hook.id)).status).toBe("active");
  });

  it("accepts any 2xx as success", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    a.respond(() => ({ status: 204 }));
    await emit(account.id);
    await drain();
    const [attempt] = (await logsOf(adminToken, hook.id)).data;
    expect(attempt).toMatchObject({ status: "succeeded", response_status: 204, next_attempt_at: null, error: null });
  });

  it("disables the webhook at once on 410 Gone and stops its deliveries", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const watcher = await registerWebhook(adminToken, { url: b.url, events: ["webhook.failed"] });
    a.respond(() => ({ status: 410, body: "gone" }));
    await emit(account.id);
    await emit(account.id);
    await drain();
    await drain(5 * HOUR);
    expect(a.deliveries()).toHaveLength(1);
    const row = await webhookRow(hook.id);
    expect(row.status).toBe("disabled");
    expect(row.statusReason).toMatch(/410/);
    const deliveries = await eventDeliveries(hook.id);
    expect(deliveries.map((d) => d.status)).toEqual(["failed", "failed"]);
    expect(deliveries[1].lastError).toMatch(/stopped/);
    // A 410 is the receiver's own decision, not an exhausted delivery.
    expect((await eventDeliveries(watcher.id)).length).toBe(0);
    // New events no longer go to it.
    await emit(account.id);
    expect((await eventDeliveries(hook.id)).length).toBe(2);
  });

  it("disables the webhook after 10 consecutive failed deliveries; a success resets the count", async () => {
    const restore = setEnv({ WEBHOOK_RETRY_SCHEDULE: "0,0,0,0" });
    try {
      const { account, adminToken } = await createTestAccount();
      const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
      a.respond(() => ({ status: 500 }));
      for (let i = 0; i < 9; i++) await emit(account.id);
      await drain();
      expect(await webhookRow(hook.id)).toMatchObject({ status: "active", consecutiveFailures: 9 });

      a.respond(() => ({ status: 200 }));
      await emit(account.id);
      await drain();
      expect(await webhookRow(hook.id)).toMatchObject({ status: "active", consecutiveFailures: 0 });

      a.respond(() => ({ status: 500 }));
      for (let i = 0; i < 10; i++) await emit(account.id);
      await drain();
      const row = await webhookRow(hook.id);
      expect(row).toMatchObject({ status: "disabled", consecutiveFailures: 10 });
      expect(row.statusReason).toMatch(/10 consecutive deliveries failed/);
      expect(a.deliveries()).toHaveLength(9 * 5 + 1 + 10 * 5);
    } finally {
      restore();
    }
  });

  it("stops the retries of a webhook that is disabled or deleted", async () => {
    const { account, adminToken } = await createTestAccount();
    const disabled = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const deleted = await registerWebhook(adminToken, { url: b.url, events: ["message.received"] });
    a.respond(() => ({ status: 500 }));
    b.respond(() => ({ status: 500 }));
    await emit(account.id);
    await drain();
    expect(a.deliveries()).toHaveLength(1);
    expect(b.deliveries()).toHaveLength(1);
    await call(item.PATCH, { method: "PATCH", path: `/v1/webhooks/${disabled.id}`, token: adminToken, params: { id: disabled.id }, body: { status: "disabled" } });
    await call(item.DELETE, { method: "DELETE", path: `/v1/webhooks/${deleted.id}`, token: adminToken, params: { id: deleted.id } });
    await drain(5 * HOUR);
    expect(a.deliveries()).toHaveLength(1);
    expect(b.deliveries()).toHaveLength(1);
    const [delivery] = await eventDeliveries(disabled.id);
    expect(delivery).toMatchObject({ status: "failed", lastError: "stopped: the webhook is disabled" });
    const open = await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.id), ne(jobs.status, "done")));
    expect(open).toEqual([]);
  });

  it("checks the URL policy again at delivery: without the flag a loopback target is refused and nothing is sent", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: undefined });
    try {
      await emit(account.id);
      await drain();
    } finally {
      restore();
    }
    expect(a.deliveries()).toEqual([]);
    const [attempt] = (await logsOf(adminToken, hook.id)).data;
    expect(attempt).toMatchObject({ status: "failed", response_status: null });
    expect(attempt.error).toMatch(/^refused: The webhook URL must use https/);
  });

  it("connects only to the address the policy approved (a rebinding name is refused, an approved one is pinned)", async () => {
    const common = { secret: "s".repeat(20), body: "{}", eventId: "evt_x", eventType: "message.received", deliveryId: "dlv_x", attempt: 1 };
    const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: undefined });
    try {
      const refused = await sendSigned({ ...common, url: "https://hooks.example.test/x", lookup: async () => [{ address: "10.0.0.7", family: 4 }] });
      expect(refused).toMatchObject({ ok: false, status: null });
      expect(refused.error).toMatch(/public internet/);
      const mixed = await sendSigned({
        ...common,
        url: "https://hooks.example.test/x",
        lookup: async () => [
          { address: "8.8.8.8", family: 4 },
          { address: "127.0.0.1", family: 4 },
        ],
      });
      expect(mixed.error).toMatch(/public internet/);
    } finally {
      restore();
    }
    const pinned = await sendSigned({ ...common, url: `http://hooks.example.test:${a.port}/a`, lookup: async () => [{ address: "127.0.0.1", family: 4 }] });
    expect(pinned).toMatchObject({ ok: true, status: 200 });
    expect(a.requests.at(-1)?.headers.host).toBe(`hooks.example.test:${a.port}`);
  });
});

describe("the attempt function", () => {
  it("is idempotent per (delivery, attempt): a repeated call returns the recorded outcome without sending", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    await emit(account.id);
    const [delivery] = await eventDeliveries(hook.id);
    const first = await attemptDelivery(systemContext(), { deliveryId: delivery.id, attempt: 1 });
    const again = await attemptDelivery(systemContext(), { deliveryId: delivery.id, attempt: 1 });
    expect(first).toMatchObject({ status: "succeeded", done: true, replayed: false });
    expect(again).toMatchObject({ status: "succeeded", done: true, replayed: true, attemptId: first.attemptId });
    expect(a.deliveries()).toHaveLength(1);
    // The job the event enqueued finds the delivery done and sends nothing either.
    await drain();
    expect(a.deliveries()).toHaveLength(1);
  });

  it("sends an unfinished attempt again only once it is stale (a live one in flight is left alone)", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    await emit(account.id);
    const [delivery] = await eventDeliveries(hook.id);
    const now = new Date();
    await getDb().insert(webhookAttempts).values({
      id: "att_crashed",
      accountId: account.id,
      webhookId: hook.id,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      attempt: 1,
      status: "pending",
      attemptedAt: now,
    });
    const live = await attemptDelivery(systemContext(), { deliveryId: delivery.id, attempt: 1, now });
    expect(live.status).toBe("in_flight");
    expect(a.deliveries()).toHaveLength(0);
    const later = await attemptDelivery(systemContext(), { deliveryId: delivery.id, attempt: 1, now: new Date(now.getTime() + 60_000) });
    expect(later).toMatchObject({ status: "succeeded", replayed: false });
    expect(a.deliveries()).toHaveLength(1);
    const rows = await getDb().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    expect(rows.map((r) => [r.attempt, r.status])).toEqual([[1, "succeeded"]]);
  });
});

describe("logs, stats and redelivery", () => {
  it("filters the log by status and pages it newest first without repeats", async () => {
    const restore = setEnv({ WEBHOOK_RETRY_SCHEDULE: "0,0,0,0" });
    try {
      const { account, adminToken } = await createTestAccount();
      const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
      a.respond((_r, i) => (i % 3 === 0 ? { status: 500 } : { status: 200 }));
      for (let i = 0; i < 6; i++) await emit(account.id);
      await drain();
      const all = await logsOf(adminToken, hook.id, "?limit=100");
      const attemptsAll = all.data.filter((x: any) => x.event_type === "message.received");
      expect(attemptsAll.length).toBe(a.deliveries().length);
      const failed = await logsOf(adminToken, hook.id, "?status=failed&limit=100");
      const succeeded = await logsOf(adminToken, hook.id, "?status=succeeded&limit=100");
      expect(failed.data.every((x: any) => x.status === "failed")).toBe(true);
      expect(succeeded.data.every((x: any) => x.status === "succeeded")).toBe(true);
      expect(failed.data.length + succeeded.data.length).toBe(all.data.length);
      expect((await logsOf(adminToken, hook.id, "?status=pending")).data).toEqual([]);

      // Newest first by (attempted_at, id).
      const keys = all.data.map((x: any) => `${x.attempted_at}|${x.id}`);
      expect([...keys].sort().reverse()).toEqual(keys);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await logsOf(adminToken, hook.id, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(page.data.length).toBeLessThanOrEqual(3);
        seen.push(...page.data.map((x: any) => x.id));
        cursor = page.pagination.next_cursor;
        expect(page.pagination.has_more).toBe(cursor !== null);
      } while (cursor);
      expect(seen).toEqual(all.data.map((x: any) => x.id));

      const entry = all.data[0];
      expect(Object.keys(entry).sort()).toEqual(
        ["id", "delivery_id", "event_id", "event_type", "attempt", "status", "response_status", "response_body", "duration_ms", "error", "attempted_at", "next_attempt_at"].sort(),
      );
      const bad = await call(logs.GET, { path: `/v1/webhooks/${hook.id}/logs?cursor=abc.def`, token: adminToken, params: { id: hook.id } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0].path).toBe("cursor");
      const badStatus = await call(logs.GET, { path: `/v1/webhooks/${hook.id}/logs?status=done`, token: adminToken, params: { id: hook.id } });
      expect(badStatus.status).toBe(400);
      const badLimit = await call(logs.GET, { path: `/v1/webhooks/${hook.id}/logs?limit=0`, token: adminToken, params: { id: hook.id } });
      expect(badLimit.status).toBe(400);
    } finally {
      restore();
    }
  });

  it("redelivers a failed delivery now: a new attempt of the same event, same event id", async () => {
    const restore = setEnv({ WEBHOOK_RETRY_SCHEDULE: "0,0,0,0" });
    try {
      const { account, adminToken } = await createTestAccount();
      const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
      a.respond(() => ({ status: 500 }));
      const event = await emit(account.id);
      await drain();
      const [delivery] = await eventDeliveries(hook.id);
      expect(delivery.status).toBe("failed");
      expect((await webhookRow(hook.id)).consecutiveFailures).toBe(1);

      a.respond(() => ({ status: 200, body: "thanks" }));
      const res = await call(retry.POST, {
        method: "POST",
        path: `/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`,
        token: adminToken,
        params: { id: hook.id, delivery_id: delivery.id },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ delivery_id: delivery.id, event_id: event.id, attempt: 6, status: "succeeded", response_status: 200, response_body: "thanks" });
      const last = a.deliveries().at(-1)!;
      expect(last.headers["x-service-event-id"]).toBe(event.id);
      expect(last.headers["x-service-delivery-id"]).toBe(delivery.id);
      expect(last.headers["x-service-delivery-attempt"]).toBe("6");
      expect(last.raw).toBe(a.deliveries()[0].raw);
      expect(verifyDelivery(last, hook.secret)).toEqual([]);
      expect((await eventDeliveries(hook.id))[0].status).toBe("succeeded");
      expect((await webhookRow(hook.id)).consecutiveFailures).toBe(0);

      // A succeeded delivery can be sent again too.
      const again = await call(retry.POST, { method: "POST", path: "/", token: adminToken, params: { id: hook.id, delivery_id: delivery.id } });
      expect(again.body).toMatchObject({ attempt: 7, status: "succeeded" });
      // Unknown delivery, or one of another webhook: 404.
      const unknown = await call(retry.POST, { method: "POST", path: "/", token: adminToken, params: { id: hook.id, delivery_id: "dlv_nope" } });
      expect(unknown.status).toBe(404);
      const otherHook = await registerWebhook(adminToken, { url: b.url, events: ["message.received"] });
      const wrongHook = await call(retry.POST, { method: "POST", path: "/", token: adminToken, params: { id: otherHook.id, delivery_id: delivery.id } });
      expect(wrongHook.status).toBe(404);
    } finally {
      restore();
    }
  });

  it("brings the next scheduled attempt forward for a delivery still being retried", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    a.respond(() => ({ status: 500 }));
    await emit(account.id);
    await drain();
    const [delivery] = await eventDeliveries(hook.id);
    a.respond(() => ({ status: 200 }));
    const res = await call(retry.POST, { method: "POST", path: "/", token: adminToken, params: { id: hook.id, delivery_id: delivery.id } });
    expect(res.body).toMatchObject({ attempt: 2, status: "succeeded" });
    // The scheduled job finds the delivery done.
    await drain(2 * HOUR);
    expect(a.deliveries()).toHaveLength(2);
  });

  it("refuses to redeliver to a disabled webhook (409)", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: a.url, events: ["message.received"] });
    await emit(account.id);
    await drain();
    const [delivery] = await eventDeliveries(hook.id);
    await call(item.PATCH, { method: "PATCH", path: "/", token: adminToken, params: { id: hook.id }, body: { status: "disabled" } });
    const res = await call(retry.POST, { method: "POST", path: "/", token: adminToken, params: { id: hook.id, delivery_id: delivery.id } });
    expect(res.status).toBe(409);
    expect(a.deliveries()).toHaveLength(1);
    const rows = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    expect(rows[0].attempts).toBe(1);
  });
});
