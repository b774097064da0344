import { InngestTestEngine } from "@inngest/test";
import { systemContext } from "@/lib/server/context";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { jobs, webhookAttempts, webhooks } from "@/db/schema";
import { deliverWebhook } from "@/inngest/functions/deliver-webhook";
import { createRunJobFunction, runJob } from "@/inngest/functions/run-job";
import { jobsWith } from "@/tests/support/jobs";
import { jobRegistry } from "@/lib/server/job-registry";
import { type InngestEvent, inngestRelayJobs } from "@/lib/server/inngest-relay";
import { drainJobs } from "@/lib/jobs/runner";
import { handOverLocalDeliveries } from "@/lib/jobs/delivery-queue";
import { setEnv } from "@/tests/support/env-vars";
import { createTestAccount } from "@/tests/support/fixtures";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";
import { verifyDelivery } from "@/tests/support/webhook-verifier";
import { deliveriesOf, emit, registerWebhook } from "@/tests/support/webhooks";

let receiver: WebhookReceiver;
let restoreEnv: () => void;

beforeAll(async () => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_RETRY_SCHEDULE: undefined });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  restoreEnv();
});
afterEach(async () => {
  await getDb().delete(webhooks);
  await getDb().delete(jobs);
  receiver.respond(() => ({ status: 200, body: "ok" }));
  receiver.requests.length = 0;
});

// Fresh mocks per run: the test engine keeps state on the mocked steps it is given.
const sleeps = () => [1, 2, 3, 4].map((n) => ({ id: `wait-${n}`, handler: () => undefined }));
const requested = (deliveryId: string) => [{ name: "chorus/webhook.delivery.requested", data: { deliveryId } }] as [{ name: string; data: { deliveryId: string } }];

/** A delivery of a fresh account's webhook at the test receiver, its first attempt not yet made. */
async function pendingDelivery() {
  const { account, adminToken } = await createTestAccount();
  const hook = await registerWebhook(adminToken, { url: receiver.url, events: ["message.received"] });
  const event = await emit(account.id);
  const delivery = (await deliveriesOf(hook.id)).find((d) => d.eventId === event.id)!;
  receiver.requests.length = 0;
  return { hook, event, delivery };
}

describe("Inngest function deliver-webhook", () => {
  it("attempts in step.run and sleeps exactly 60s, 300s, 900s, 3600s between failures", async () => {
    const { hook, event, delivery } = await pendingDelivery();
    receiver.respond(() => ({ status: 500, body: "down" }));
    const t = new InngestTestEngine({ function: deliverWebhook });
    const { result, ctx } = await t.execute({ events: requested(delivery.id), steps: sleeps() });

    expect(ctx.step.sleep.mock.calls).toEqual([
      ["wait-1", "60s"],
      ["wait-2", "300s"],
      ["wait-3", "900s"],
      ["wait-4", "3600s"],
    ]);
    const runIds = ctx.step.run.mock.calls.map((c: unknown[]) => c[0]);
    expect([...new Set(runIds)]).toEqual(["attempt-1", "attempt-2", "attempt-3", "attempt-4", "attempt-5"]);
    expect(result).toMatchObject({ deliveryId: delivery.id, attempt: 5, status: "failed", done: true });

    // The receiver saw each attempt exactly once, numbered 1..5, same event, all signed.
    const received = receiver.deliveries();
    expect(received.map((r) => r.headers["x-service-delivery-attempt"])).toEqual(["1", "2", "3", "4", "5"]);
    expect(new Set(received.map((r) => r.headers["x-service-event-id"]))).toEqual(new Set([event.id]));
    for (const r of received) expect(verifyDelivery(r, hook.secret)).toEqual([]);
    const [row] = (await deliveriesOf(hook.id)).filter((d) => d.id === delivery.id);
    expect(row).toMatchObject({ status: "failed", attempts: 5 });
  });

  it("follows a shortened WEBHOOK_RETRY_SCHEDULE", async () => {
    const restore = setEnv({ WEBHOOK_RETRY_SCHEDULE: "1,2,0.5,4" });
    try {
      const { delivery } = await pendingDelivery();
      receiver.respond(() => ({ status: 500 }));
      const { ctx } = await new InngestTestEngine({ function: deliverWebhook }).execute({ events: requested(delivery.id), steps: sleeps() });
      expect(ctx.step.sleep.mock.calls).toEqual([
        ["wait-1", "1s"],
        ["wait-2", "2s"],
        ["wait-3", "500ms"],
        ["wait-4", "4s"],
      ]);
    } finally {
      restore();
    }
  });

  it("stops after the first success without sleeping", async () => {
    const { delivery } = await pendingDelivery();
    const { result, ctx } = await new InngestTestEngine({ function: deliverWebhook }).execute({ events: requested(delivery.id), steps: sleeps() });
    expect(result).toMatchObject({ attempt: 1, status: "succeeded", done: true });
    expect(ctx.step.sleep).not.toHaveBeenCalled();
    expect(receiver.deliveries()).toHaveLength(1);
  });

  it("succeeds on a later attempt after sleeping only as long as needed", async () => {
    const { delivery } = await pendingDelivery();
    receiver.respond((_r, i) => (i < 2 ? { status: 502 } : { status: 200 }));
    const { result, ctx } = await new InngestTestEngine({ function: deliverWebhook }).execute({ events: requested(delivery.id), steps: sleeps() });
    expect(result).toMatchObject({ attempt: 3, status: "succeeded" });
    expect(ctx.step.sleep.mock.calls).toEqual([
      ["wait-1", "60s"],
      ["wait-2", "300s"],
    ]);
  });

  it("does not POST twice when an attempt-N step is executed again", async () => {
    const { delivery } = await pendingDelivery();
    receiver.respond(() => ({ status: 500 }));
    const t = new InngestTestEngine({ function: deliverWebhook });

    // attempt-1 runs for real, then Inngest executes the same step again (a retried request).
    const first = await t.executeStep("attempt-1", { events: requested(delivery.id) });
    expect(first.result).toMatchObject({ attempt: 1, status: "failed", replayed: false });
    const replay = await t.clone().executeStep("attempt-1", { events: requested(delivery.id) });
    expect(replay.result).toMatchObject({ attempt: 1, status: "failed", replayed: true, attemptId: (first.result as any).attemptId });
    expect(receiver.deliveries()).toHaveLength(1);

    // A whole run replayed from the start sends only the attempts not yet made.
    await t.clone().execute({ events: requested(delivery.id), steps: sleeps() });
    await t.clone().execute({ events: requested(delivery.id), steps: sleeps() });
    expect(receiver.deliveries().map((r) => r.headers["x-service-delivery-attempt"])).toEqual(["1", "2", "3", "4", "5"]);
    const rows = await getDb().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    expect(rows.map((r) => r.attempt).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("ends at once for a delivery that no longer exists, and refuses invalid event data", async () => {
    const gone = await new InngestTestEngine({ function: deliverWebhook }).execute({ events: requested("dlv_missing"), steps: sleeps() });
    expect(gone.result).toMatchObject({ status: "skipped", done: true });
    const bad = await new InngestTestEngine({ function: deliverWebhook }).execute({
      events: [{ name: "chorus/webhook.delivery.requested", data: { deliveryId: 42 } }] as never,
      steps: sleeps(),
    });
    expect(bad.error).toBeTruthy();
    expect(receiver.requests).toEqual([]);
  });
});

describe("Inngest function run-job", () => {
  it("runs a job kind's handler in step.run and sleeps when it asks to run again later", async () => {
    const calls: number[] = [];
    const handler = vi.fn(async (_payload: { messageId: string }, ctx: { attempt: number; now: Date }) => {
      calls.push(ctx.attempt);
      if (ctx.attempt < 3) return { retryAt: new Date(ctx.now.getTime() + 5_000) };
    });
    const { result, ctx } = await new InngestTestEngine({ function: createRunJobFunction(jobsWith({ "message.send": handler })) }).execute({
      events: [{ name: "chorus/job.requested", data: { jobId: 7, kind: "message.send", payload: { messageId: "msg_1" } } }],
      steps: [1, 2, 3].map((n) => ({ id: `retry-${n}`, handler: () => undefined })),
    });
    expect(result).toEqual({ status: "done", runs: 3 });
    expect(calls).toEqual([1, 2, 3]);
    expect(handler.mock.calls[0][0]).toEqual({ messageId: "msg_1" });
    expect(ctx.step.sleep.mock.calls.map((c: unknown[]) => c[0])).toEqual(["retry-1", "retry-2"]);
    for (const call of ctx.step.sleep.mock.calls) expect(call[1]).toMatch(/^(4\d{3}|5000)ms$/);
  });

  it("reports a handler's permanent failure and refuses unknown kinds", async () => {
    const refusing = createRunJobFunction(jobsWith({ "message.send": async () => ({ failed: "the number is not on the network" }) }));
    const { result } = await new InngestTestEngine({ function: refusing }).execute({
      events: [{ name: "chorus/job.requested", data: { jobId: 8, kind: "message.send", payload: { messageId: "msg_1" } } }],
    });
    expect(result).toEqual({ status: "failed", runs: 1, error: "the number is not on the network" });
    // A payload that does not match its kind's schema never reaches the handler, and is not retried.
    const unparsable = await new InngestTestEngine({ function: refusing }).execute({
      events: [{ name: "chorus/job.requested", data: { jobId: 10, kind: "message.send", payload: { messageId: 42 } } }],
    });
    expect(unparsable.result).toEqual({ status: "failed", runs: 0, error: expect.stringMatching(/^invalid message\.send payload: messageId: /) });
    const unknown = await new InngestTestEngine({ function: runJob }).execute({
      events: [{ name: "chorus/job.requested", data: { jobId: 9, kind: "nothing.here", payload: {} } }],
    });
    expect(String((unknown.error as Error | undefined)?.message ?? unknown.error)).toMatch(/no handler/);
  });
});

describe("the Inngest relay (JOBS_BACKEND=inngest)", () => {
  let restoreBackend: () => void;
  beforeAll(() => {
    restoreBackend = setEnv({ JOBS_BACKEND: "inngest", INNGEST_DEV: "1" });
  });
  afterAll(() => restoreBackend());

  it("sends each due job row to Inngest as an event with a stable id, then marks it done", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: receiver.url, events: ["message.received"] });
    receiver.requests.length = 0;
    await emit(account.id);
    await emit(account.id);
    const sent: InngestEvent[] = [];
    const handlers = inngestRelayJobs(jobRegistry, async (events) => {
      sent.push(...events);
    });
    await drainJobs(systemContext(), handlers);
    const deliveries = (await deliveriesOf(hook.id)).filter((d) => d.eventType === "message.received");
    expect(sent).toEqual(
      deliveries.map((d) => ({ name: "chorus/webhook.delivery.requested", data: { deliveryId: d.id }, id: `webhook-delivery-${d.id}` })),
    );
    const rows = await getDb().select().from(jobs).where(eq(jobs.accountId, account.id));
    expect(rows.map((r) => r.status)).toEqual(["done", "done"]);
    // The relay only hands over: nothing was sent to the receiver by this process.
    expect(receiver.deliveries()).toEqual([]);
  });

  it("hands over deliveries begun by the local runner (no job row) once, when a server starts in Inngest mode", async () => {
    const { account, adminToken } = await createTestAccount();
    const hook = await registerWebhook(adminToken, { url: receiver.url, events: ["message.received"] });
    const local = setEnv({ JOBS_BACKEND: "local" });
    try {
      await emit(account.id);
    } finally {
      local();
    }
    const [delivery] = (await deliveriesOf(hook.id)).filter((d) => d.eventType === "message.received");
    expect(await getDb().select().from(jobs).where(eq(jobs.accountId, account.id))).toEqual([]);
    expect(await handOverLocalDeliveries(getDb())).toBeGreaterThanOrEqual(1);
    expect(await handOverLocalDeliveries(getDb())).toBe(0);
    const sent: InngestEvent[] = [];
    await drainJobs(systemContext(), inngestRelayJobs(jobRegistry, async (events) => void sent.push(...events)));
    expect(sent).toContainEqual({ name: "chorus/webhook.delivery.requested", data: { deliveryId: delivery.id }, id: `webhook-delivery-${delivery.id}` });
    expect(receiver.deliveries()).toEqual([]);
  });

  it("keeps a job due when Inngest cannot be reached, and hands it over later", async () => {
    const { account, adminToken } = await createTestAccount();
    await registerWebhook(adminToken, { url: receiver.url, events: ["message.received"] });
    await emit(account.id);
    const failing = inngestRelayJobs(jobRegistry, async () => {
      throw new Error("connect ECONNREFUSED inngest");
    });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await drainJobs(systemContext(), failing);
    } finally {
      errors.mockRestore();
    }
    const [row] = await getDb().select().from(jobs).where(eq(jobs.accountId, account.id));
    expect(row).toMatchObject({ status: "pending", lastError: "connect ECONNREFUSED inngest" });
    const sent: InngestEvent[] = [];
    await drainJobs(systemContext(), inngestRelayJobs(jobRegistry, async (events) => void sent.push(...events)), { now: new Date(Date.now() + 120_000) });
    expect(sent).toHaveLength(1);
  });
});
