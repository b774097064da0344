import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import { getDb } from "@/db";
import { earlyStatuses, jobs, messages, messageSendAttempts } from "@/db/schema";
import { drainJobs } from "@/lib/jobs/runner";
import { JOB_LEASE_MS, JOBS_SOURCE } from "@/lib/jobs/source";
import { sourceNamed } from "@/lib/jobs/sources";
import { handOverQueuedMessage, recordSentMessages } from "@/lib/messages/send-queued-message";
import { newId } from "@/lib/platform/ids";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { systemContext } from "@/lib/server/context";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { buildInboundPayload, type FakeCloudNetwork, type InboundStatusInput, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone, seedConversation } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-recover-network-token-123456";
const APP_SECRET = "recover-app-secret-0123456789";
let seq = 0;
let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

// The fake network listens on loopback, which the URL policy allows only with this switch.
beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  const phoneNumberId = `30654035224${String(++seq).padStart(4, "0")}`;
  network = await startFakeCloudNetwork({ accessToken: ACCESS_TOKEN, phoneNumberId });
  account = await createTestAccount();
  const res = await call(numberRoute.PUT, {
    method: "PUT",
    path: "/v1/config/number",
    token: account.adminToken,
    body: {
      provider: "cloud",
      phone_number: "+14155552671",
      phone_number_id: phoneNumberId,
      business_account_id: "102290129340398",
      access_token: ACCESS_TOKEN,
      app_secret: APP_SECRET,
      verify_token: `recover-verify-${seq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status).toBe(200);
});

afterEach(async () => {
  await network.close();
});

const send = (body: unknown) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: account.adminToken, body });
const getMessage = async (id: string) => (await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body;
const afterTheLease = () => new Date(Date.now() + JOB_LEASE_MS + 60_000);
const sendsTo = (to: string) => network.acceptedMessages.filter((m) => m.to === to);

describe("a send whose process died after the network took the message, before its answer was recorded", () => {
  it("is never handed to the network a second time: the runner's recovery fails it as interrupted, for the agent to resend", async () => {
    const to = nextPhone();
    const res = await send({ to, type: "text", text: "Your order ships today" });
    expect(res.status).toBe(201);

    // A worker claims the job and hands the message to the network; the process dies before
    // the answer is recorded (nothing after the network call runs).
    const claimed = await sourceNamed(JOBS_SOURCE).claim(getDb(), { limit: 10, now: new Date() });
    expect(claimed.map((job) => job.kind)).toContain("message.send");
    const handed = await handOverQueuedMessage(systemContext(), { messageId: res.body.id });
    expect("sent" in handed).toBe(true);
    expect(sendsTo(to)).toHaveLength(1);
    expect((await getMessage(res.body.id)).status).toBe("queued");

    // The dead worker's lease runs out; a runner claims the job again.
    await drainJobs(systemContext(), jobRegistry, { now: afterTheLease() });

    expect(sendsTo(to)).toHaveLength(1);
    const message = await getMessage(res.body.id);
    expect(message.status).toBe("failed");
    expect(message.error).toEqual({ code: "interrupted", message: expect.stringMatching(/may have arrived/) });
    const [failed] = await eventsOf(account.account.id, "message.failed");
    expect(failed.data).toEqual({ message: expect.objectContaining({ id: res.body.id, status: "failed" }) });
    // Settled: the job is finished, and a later pass sends nothing.
    await drainJobs(systemContext(), jobRegistry, { now: new Date(afterTheLease().getTime() + JOB_LEASE_MS) });
    expect(sendsTo(to)).toHaveLength(1);
    const pending = await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.account.id), eq(jobs.status, "pending")));
    expect(pending).toHaveLength(0);
  });

  it("still retries a send the network refused with a temporary error, and sends it once", async () => {
    network.failNext({ status: 503, body: { error: { message: "Service temporarily unavailable", type: "OAuthException", code: 2 } } });
    const to = nextPhone();
    const res = await send({ to, type: "text", text: "Back in stock" });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("queued");
    await drainJobs(systemContext(), jobRegistry, { now: new Date(Date.now() + 10 * 60_000) });
    const message = await getMessage(res.body.id);
    expect(message.status).toBe("sent");
    expect(sendsTo(to)).toHaveLength(1);
    // Nothing is left marking a send in progress.
    expect(await getDb().select().from(messageSendAttempts).where(eq(messageSendAttempts.messageId, res.body.id))).toHaveLength(0);
  });

  it("leaves no record of a send in progress once the answer is recorded", async () => {
    const res = await send({ to: nextPhone(), type: "text", text: "Thanks!" });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("sent");
    expect(await getDb().select().from(messageSendAttempts).where(eq(messageSendAttempts.messageId, res.body.id))).toHaveLength(0);
  });
});

/** The network's statuses, signed as it signs them, to the server's callback. */
async function statuses(list: InboundStatusInput[]) {
  const rawBody = JSON.stringify(buildInboundPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, statuses: list }));
  const res = await call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
  });
  expect(res.status, res.text).toBe(200);
}

/** A text handed to the network by a process that then died, before the answer was recorded. */
async function handedOverThenKilled(text: string) {
  const to = nextPhone();
  const res = await send({ to, type: "text", text });
  expect(res.status).toBe(201);
  await sourceNamed(JOBS_SOURCE).claim(getDb(), { limit: 10, now: new Date() });
  const handed = await handOverQueuedMessage(systemContext(), { messageId: res.body.id });
  if (!("sent" in handed)) throw new Error("the network did not take the message");
  const [accepted] = sendsTo(to);
  return { id: res.body.id as string, to, accepted, handed: handed.sent };
}

describe("the network's statuses name the message they concern by the callback data it was sent with", () => {
  it("sends every message with its id as callback data, which the network hands back", async () => {
    const res = await send({ to: nextPhone(), type: "text", text: "Hello" });
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages.at(-1)!.body.biz_opaque_callback_data).toBe(res.body.id);
  });

  it("a send failed interrupted is recorded sent, then delivered, when the network's statuses for it come; never sent again", async () => {
    const { id, to, accepted } = await handedOverThenKilled("Your order ships today");
    await drainJobs(systemContext(), jobRegistry, { now: afterTheLease() });
    expect((await getMessage(id)).status).toBe("failed");

    await statuses([{ id: accepted.id, status: "sent", recipientId: to, callbackData: accepted.callbackData }]);
    const recorded = await getMessage(id);
    expect(recorded.status).toBe("sent");
    expect(recorded.error ?? null).toBeNull();
    await statuses([{ id: accepted.id, status: "delivered", recipientId: to, callbackData: accepted.callbackData }]);
    expect((await getMessage(id)).status).toBe("delivered");
    const [row] = await getDb().select().from(messages).where(eq(messages.id, id));
    expect(row.networkMessageId).toBe(accepted.id);
    const told = (await eventsOf(account.account.id)).filter((e) => (e.data as { message?: { id: string } }).message?.id === id).map((e) => e.type);
    expect(told).toEqual(["message.failed", "message.sent", "message.delivered"]);
    // No send is left in progress, none is kept waiting for its message, and nothing is sent again.
    expect(await getDb().select().from(messageSendAttempts).where(eq(messageSendAttempts.messageId, id))).toHaveLength(0);
    expect(await getDb().select().from(earlyStatuses).where(eq(earlyStatuses.accountId, account.account.id))).toHaveLength(0);
    await drainJobs(systemContext(), jobRegistry, { now: new Date(afterTheLease().getTime() + JOB_LEASE_MS) });
    expect(sendsTo(to)).toHaveLength(1);
  });

  it("a status that comes while the send's answer is still being recorded records the message once", async () => {
    const { id, to, accepted, handed } = await handedOverThenKilled("On its way");
    await statuses([{ id: accepted.id, status: "delivered", recipientId: to, callbackData: accepted.callbackData }]);
    expect((await getMessage(id)).status).toBe("delivered");
    // The send's own record comes after: it changes nothing.
    await recordSentMessages(systemContext(), [handed]);
    expect((await getMessage(id)).status).toBe("delivered");
    expect(await eventsOf(account.account.id, "message.sent")).toHaveLength(1);
  });

  // Two transactions at once: only PostgreSQL runs them side by side (the embedded database runs one at a time).
  it.runIf(process.env.TEST_DB === "postgres")("a status that waits for the send's own record of the network id is applied once that record commits, not kept aside", async () => {
    const { id, to, accepted } = await handedOverThenKilled("Ready for pickup");
    let recorded = () => {};
    const holding = new Promise<void>((resolve) => (recorded = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // The send records the network's id, and its transaction has not committed yet.
    const send = getDb().transaction(async (tx) => {
      await tx.update(messages).set({ status: "sent", networkMessageId: accepted.id }).where(eq(messages.id, id));
      recorded();
      await released;
    });
    await holding;
    const status = statuses([{ id: accepted.id, status: "delivered", recipientId: to, callbackData: accepted.callbackData }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await send;
    await status;
    expect((await getMessage(id)).status).toBe("delivered");
    expect(await getDb().select().from(earlyStatuses).where(eq(earlyStatuses.accountId, account.account.id))).toHaveLength(0);
  });

  it("callback data naming no message the network could have taken changes nothing", async () => {
    // Another account's message, failed interrupted.
    const other = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: other.account.id });
    const now = new Date();
    const theirs = newId("message", now);
    const interrupted = { code: "interrupted", message: "Sending stopped." };
    await getDb().insert(messages).values({ id: theirs, accountId: other.account.id, conversationId: conversation.id, direction: "outbound", fromNumber: "14155552671", toNumber: "447700900001", type: "text", text: "Hi", status: "failed", senderType: "user", error: interrupted, createdAt: now, updatedAt: now });
    await statuses([{ id: "wamid.someone-elses", status: "sent", recipientId: "447700900001", callbackData: theirs }]);
    expect((await getDb().select().from(messages).where(eq(messages.id, theirs)))[0]).toMatchObject({ status: "failed", networkMessageId: null, error: interrupted });

    // A customer's message in this account.
    const inbound = newId("message", now);
    await getDb().insert(messages).values({ id: inbound, accountId: account.account.id, conversationId: (await seedConversation({ accountId: account.account.id })).conversation.id, direction: "inbound", fromNumber: "447700900005", toNumber: "14155552671", type: "text", text: "Hello", status: "received", senderType: "contact", createdAt: now, updatedAt: now });
    await statuses([{ id: "wamid.customers", status: "sent", recipientId: "447700900005", callbackData: inbound }]);
    expect((await getDb().select().from(messages).where(eq(messages.id, inbound)))[0]).toMatchObject({ status: "received", networkMessageId: null });

    // A message the network refused; one already carrying its network id.
    network.failNext({ status: 400, body: { error: { message: "(#131026) Message undeliverable", code: 131026 } } });
    const refused = await send({ to: nextPhone(), type: "text", text: "Refused" });
    const sent = await send({ to: nextPhone(), type: "text", text: "Sent" });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(refused.body.id)).status).toBe("failed");
    const sentId = (await getDb().select().from(messages).where(eq(messages.id, sent.body.id)))[0].networkMessageId;
    await statuses([
      { id: "wamid.refused", status: "delivered", recipientId: "447700900002", callbackData: refused.body.id },
      { id: "wamid.another", status: "read", recipientId: "447700900003", callbackData: sent.body.id },
      // Longer than the network allows: dropped, the status kept.
      { id: "wamid.long", status: "sent", recipientId: "447700900004", callbackData: "x".repeat(600) },
    ]);
    expect(await getMessage(refused.body.id)).toMatchObject({ status: "failed", error: expect.objectContaining({ code: "131026" }) });
    expect((await getDb().select().from(messages).where(eq(messages.id, sent.body.id)))[0]).toMatchObject({ status: "sent", networkMessageId: sentId });
    // Each kept, in this account only, for a send that may still record that id.
    const kept = await getDb().select().from(earlyStatuses).where(eq(earlyStatuses.accountId, account.account.id));
    expect(kept.map((k) => k.networkMessageId).sort()).toEqual(["wamid.another", "wamid.customers", "wamid.long", "wamid.refused", "wamid.someone-elses"]);
    expect(await getDb().select().from(earlyStatuses).where(eq(earlyStatuses.accountId, other.account.id))).toHaveLength(0);
  });
});
