import { eq } from "drizzle-orm";
import { systemContext } from "@/lib/server/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as testRoute from "@/app/v1/config/number/test/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as listRoute from "@/app/v1/conversations/route";
import * as mediaRoute from "@/app/v1/messages/[id]/media/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import { getDb } from "@/db";
import { jobs, messages } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { drainJobs } from "@/lib/jobs/runner";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import {
  buildInboundPayload,
  type FakeCloudNetwork,
  type InboundMessageInput,
  type InboundStatusInput,
  signHubPayload,
  startFakeCloudNetwork,
} from "@/tests/support/fake-cloud-network";
import { createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, nextPhone, PDF, PNG } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-123456";
const APP_SECRET = "fake-app-secret-0123456789";
const VERIFY_TOKEN = "verify-token-for-the-fake";
let idSeq = 0;

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
  const phoneNumberId = `20654035224${String(++idSeq).padStart(4, "0")}`;
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
      verify_token: `${VERIFY_TOKEN}-${idSeq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status).toBe(200);
});

afterEach(async () => {
  await network.close();
});

const farFuture = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const send = (body: unknown) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: account.adminToken, body });
const getMessage = async (id: string) => (await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body;

function postWebhook(payload: unknown, { secret = APP_SECRET, signature }: { secret?: string; signature?: string | null } = {}) {
  const rawBody = JSON.stringify(payload);
  const header = signature === undefined ? signHubPayload({ appSecret: secret, rawBody }) : signature;
  return call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", ...(header ? { "x-hub-signature-256": header } : {}) },
  });
}
const inbound = (messages: InboundMessageInput[]) => buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages });
const statuses = (list: InboundStatusInput[]) => buildInboundPayload({ phoneNumberId: network.phoneNumberId, statuses: list });

describe("sending through the cloud network", () => {
  it("sends a text with the network's request shape and records the network's message id", async () => {
    const to = nextPhone();
    const res = await send({ to, type: "text", text: "Your plants ship today" });
    await drainJobs(systemContext(), jobRegistry);
    const message = await getMessage(res.body.id);
    expect(message.status).toBe("sent");
    expect(message.from).toBe("14155552671");

    expect(network.requests).toHaveLength(1);
    const [request] = network.requests;
    expect(request.method).toBe("POST");
    expect(request.path).toBe(`/v21.0/${network.phoneNumberId}/messages`);
    expect(request.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to,
      type: "text",
      text: { body: "Your plants ship today", preview_url: false },
      // Handed back in the message's statuses.
      biz_opaque_callback_data: res.body.id,
    });
    const [row] = await getDb().select().from(messages).where(eq(messages.id, res.body.id));
    expect(row.networkMessageId).toBe(network.acceptedMessages[0].id);
    const [sent] = await eventsOf(account.account.id, "message.sent");
    expect(sent.data).toEqual({ message: expect.objectContaining({ id: res.body.id, status: "sent" }) });
    // Only the sandbox simulates statuses; the network reports its own.
    const kinds = (await getDb().select().from(jobs).where(eq(jobs.accountId, account.account.id))).map((j) => j.kind);
    expect(kinds).toEqual(["message.send"]);
  });

  it("uploads media first, then sends it by id with its caption and filename", async () => {
    const res = await send({ to: nextPhone(), type: "document", media: { mime_type: "application/pdf", data: PDF.toString("base64"), filename: "care-guide.pdf", caption: "Care guide" } });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("sent");
    expect(network.requests.map((r) => r.path)).toEqual([`/v21.0/${network.phoneNumberId}/media`, `/v21.0/${network.phoneNumberId}/messages`]);
    expect(network.requests[0].body).toMatchObject({ messaging_product: "whatsapp", type: "application/pdf", file: { filename: "care-guide.pdf", size: PDF.length } });
    const mediaId = (network.requests[1].body as { document: { id: string } }).document.id;
    expect(network.requests[1].body).toMatchObject({ type: "document", document: { id: mediaId, caption: "Care guide", filename: "care-guide.pdf" } });
    expect(network.getMedia(mediaId)?.bytes.equals(PDF)).toBe(true);
  });

  it("marks the message failed with the network's error on a 4xx, without retrying", async () => {
    network.failNext({ status: 400, body: { error: { message: "(#131030) Recipient phone number not in allowed list", type: "OAuthException", code: 131030 } } });
    const res = await send({ to: nextPhone(), type: "text", text: "hi" });
    await drainJobs(systemContext(), jobRegistry, { now: farFuture(120) });
    const message = await getMessage(res.body.id);
    expect(message.status).toBe("failed");
    expect(message.error).toEqual({ code: "131030", message: "(#131030) Recipient phone number not in allowed list" });
    expect(network.requests).toHaveLength(1);
    const [failed] = await eventsOf(account.account.id, "message.failed");
    expect(failed.data).toEqual({ message: expect.objectContaining({ id: res.body.id, status: "failed", error: message.error }) });
  });

  it("fails at once when the network refuses the access token (401)", async () => {
    network.failNext({ status: 401 });
    const res = await send({ to: nextPhone(), type: "text", text: "hi" });
    await drainJobs(systemContext(), jobRegistry);
    expect(await getMessage(res.body.id)).toMatchObject({ status: "failed", error: { code: "190", message: "Invalid OAuth access token." } });
  });

  it("retries a 5xx with backoff, then fails keeping the last error", async () => {
    network.failAll({ status: 500 });
    const res = await send({ to: nextPhone(), type: "text", text: "hi" });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("queued");
    const [job] = await getDb().select().from(jobs).where(eq(jobs.accountId, account.account.id));
    expect(job).toMatchObject({ status: "pending", attempts: 1, lastError: "1: An unknown error has occurred." });
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 5_000);

    for (let i = 0; i < 6; i++) await drainJobs(systemContext(), jobRegistry, { now: farFuture(60 * (i + 1)) });
    const message = await getMessage(res.body.id);
    expect(message).toMatchObject({ status: "failed", error: { code: "1", message: "An unknown error has occurred." } });
    expect(network.requests).toHaveLength(5);
    expect(await eventsOf(account.account.id, "message.failed")).toHaveLength(1);
  });

  it("sends on a later attempt after a temporary outage", async () => {
    network.failNext({ status: 503 });
    const res = await send({ to: nextPhone(), type: "text", text: "hi" });
    await drainJobs(systemContext(), jobRegistry);
    await drainJobs(systemContext(), jobRegistry, { now: farFuture(1) });
    expect((await getMessage(res.body.id)).status).toBe("sent");
    expect(network.requests).toHaveLength(2);
  });

  it("tests the connection against the network and records the number's status", async () => {
    const ok = await call(testRoute.POST, { method: "POST", path: "/", token: account.adminToken });
    expect(ok.body).toEqual({ ok: true, message: "Connected to +1 555-010-0199 (Chorus Test Business).", status: "connected" });
    network.failNext({ status: 401 });
    const bad = await call(testRoute.POST, { method: "POST", path: "/", token: account.adminToken });
    expect(bad.body).toMatchObject({ ok: false, status: "error" });
    expect(bad.text).not.toContain(ACCESS_TOKEN);
    const config = await call(numberRoute.GET, { path: "/", token: account.adminToken });
    expect(config.body).toMatchObject({ status: "error", status_reason: expect.stringContaining("Access token rejected") });
  });
});

describe("the network's webhook", () => {
  it("stores an inbound text with its contact and conversation", async () => {
    const from = nextPhone();
    const res = await postWebhook(inbound([{ from, name: "Lucía", type: "text", text: "¿Tienen monstera?" }]));
    expect(res.status).toBe(200);
    const list = await call(listRoute.GET, { path: "/v1/conversations", token: account.adminToken });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ status: "open", contact: { phone: from, name: "Lucía" }, unread_count: 1 });
    const [received] = await eventsOf(account.account.id, "message.received");
    expect(received.data.message).toMatchObject({ direction: "inbound", from, to: "14155552671", type: "text", text: "¿Tienen monstera?", status: "received", sender: { type: "contact" } });
  });

  it("downloads inbound media and stores it with the message", async () => {
    const mediaId = network.addMedia({ bytes: PNG, mimeType: "image/png" });
    const from = nextPhone();
    const res = await postWebhook(inbound([{ from, type: "image", media: { id: mediaId, mimeType: "image/png", caption: "Is this leaf sick?" } }]));
    expect(res.status).toBe(200);
    await drainJobs(systemContext(), jobRegistry);
    const [received] = await eventsOf(account.account.id, "message.received");
    const message = received.data.message as { id: string; media: Record<string, unknown> };
    expect(message.media).toMatchObject({ mime_type: "image/png", size: PNG.length, caption: "Is this leaf sick?" });
    const file = await mediaRoute.GET(new Request("http://localhost/", { headers: { authorization: `Bearer ${account.adminToken}` } }), {
      params: Promise.resolve({ id: message.id }),
    });
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
    const download = network.requests.find((r) => r.path === `/v21.0/${mediaId}`);
    expect(download?.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
  });

  it("keeps a media message whose file is gone, saying why", async () => {
    const res = await postWebhook(inbound([{ from: nextPhone(), type: "image", media: { id: "999999999", mimeType: "image/png" } }]));
    expect(res.status).toBe(200);
    await drainJobs(systemContext(), jobRegistry);
    const [received] = await eventsOf(account.account.id, "message.received");
    expect(received.data.message).toMatchObject({ type: "image", error: { code: "100" } });
    expect(received.data.message).not.toHaveProperty("media");
  });

  it("stores a redelivered notification once", async () => {
    const mediaId = network.addMedia({ bytes: PNG, mimeType: "image/png" });
    const payload = inbound([
      { from: nextPhone(), id: "wamid.duplicate-text-1", type: "text", text: "hello" },
      { from: nextPhone(), id: "wamid.duplicate-image-1", type: "image", media: { id: mediaId, mimeType: "image/png" } },
    ]);
    expect((await postWebhook(payload)).status).toBe(200);
    expect((await postWebhook(payload)).status).toBe(200);
    await drainJobs(systemContext(), jobRegistry);
    expect((await postWebhook(payload)).status).toBe(200);
    await drainJobs(systemContext(), jobRegistry);
    expect((await countRows(account.account.id)).messages).toBe(2);
    expect(await eventsOf(account.account.id, "message.received")).toHaveLength(2);
  });

  it("applies statuses forward only: sent → delivered → read, late or repeated ones ignored", async () => {
    const res = await send({ to: nextPhone(), type: "text", text: "hi" });
    await drainJobs(systemContext(), jobRegistry);
    const wamid = network.acceptedMessages[0].id;
    const recipientId = res.body.to;
    await postWebhook(statuses([{ id: wamid, status: "delivered", recipientId }]));
    expect((await getMessage(res.body.id)).status).toBe("delivered");
    await postWebhook(statuses([{ id: wamid, status: "read", recipientId }]));
    await postWebhook(statuses([{ id: wamid, status: "delivered", recipientId }, { id: wamid, status: "sent", recipientId }]));
    await postWebhook(statuses([{ id: wamid, status: "failed", recipientId, error: { code: 131026, title: "Message undeliverable" } }]));
    expect((await getMessage(res.body.id)).status).toBe("read");
    const types = (await eventsOf(account.account.id)).map((e) => e.type).filter((t) => t.startsWith("message."));
    expect(types).toEqual(["message.sent", "message.delivered", "message.read"]);
  });

  it("records a failed status with the network's error", async () => {
    const res = await send({ to: nextPhone(), type: "text", text: "hi" });
    await drainJobs(systemContext(), jobRegistry);
    const wamid = network.acceptedMessages[0].id;
    await postWebhook(statuses([{ id: wamid, status: "failed", recipientId: res.body.to, error: { code: 131026, title: "Message undeliverable", details: "Receiver is incapable of receiving this message" } }]));
    expect(await getMessage(res.body.id)).toMatchObject({
      status: "failed",
      error: { code: "131026", message: "Message undeliverable: Receiver is incapable of receiving this message" },
    });
    expect(await eventsOf(account.account.id, "message.failed")).toHaveLength(1);
  });

  it.each([
    ["a wrong secret", { secret: "not-the-app-secret" }],
    ["a malformed header", { signature: "sha256=abc" }],
    ["no header", { signature: null }],
  ])("answers 401 to %s and stores nothing", async (_name, options) => {
    const before = await countRows(account.account.id);
    const mediaId = network.addMedia({ bytes: PNG, mimeType: "image/png" });
    const res = await postWebhook(
      inbound([
        { from: nextPhone(), type: "text", text: "forged" },
        { from: nextPhone(), type: "image", media: { id: mediaId, mimeType: "image/png" } },
      ]),
      options,
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "invalid_signature", message: expect.any(String) }, request_id: expect.any(String) });
    expect(await countRows(account.account.id)).toEqual(before);
  });

  it("still answers 401 to a bad signature when a known number shares the batch with an unknown one", async () => {
    const before = await countRows(account.account.id);
    const payload = inbound([{ from: nextPhone(), type: "text", text: "forged" }]) as { entry: unknown[] };
    const stranger = buildInboundPayload({ phoneNumberId: "555000222", messages: [{ from: nextPhone(), type: "text", text: "hi" }] }) as { entry: unknown[] };
    const mixed = { ...payload, entry: [...payload.entry, ...stranger.entry] };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const res = await postWebhook(mixed, { secret: "not-the-app-secret" });
      expect(res.status).toBe(401);
    } finally {
      warn.mockRestore();
    }
    expect(await countRows(account.account.id)).toEqual(before);
  });

  it("answers 401 to a signed body that was altered afterwards", async () => {
    const payload = inbound([{ from: nextPhone(), type: "text", text: "original" }]);
    const signature = signHubPayload({ appSecret: APP_SECRET, rawBody: JSON.stringify(payload) });
    const altered = JSON.stringify(payload).replace("original", "altered!");
    const res = await call(webhookRoute.POST, { method: "POST", path: "/", rawBody: altered, headers: { "content-type": "application/json", "x-hub-signature-256": signature } });
    expect(res.status).toBe(401);
    expect((await countRows(account.account.id)).messages).toBe(0);
  });

  it("answers 200 and ignores a number no account has connected, and 400 for a body that is not JSON", async () => {
    const before = await countRows(account.account.id);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const unknownNumber = buildInboundPayload({ phoneNumberId: "555000111", messages: [{ from: nextPhone(), type: "text", text: "hi" }] });
      const res = await postWebhook(unknownNumber, { secret: "whatever-the-sender-used" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, messages: 0, statuses: 0 });
      expect(warn).toHaveBeenCalledTimes(1);
      const [line] = warn.mock.calls[0] as [string];
      expect(line).toContain("555000111");
      expect(line).not.toContain("whatever-the-sender-used");
      expect(line.split("\n")).toHaveLength(1);
      // Unsigned or not, nothing is stored for it, and no known number is touched.
      expect((await postWebhook(unknownNumber, { signature: null })).status).toBe(200);
    } finally {
      warn.mockRestore();
    }
    expect(await countRows(account.account.id)).toEqual(before);
    const bad = await call(webhookRoute.POST, { method: "POST", path: "/", rawBody: "{nope", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_json");
  });

  it("answers the subscription handshake with the challenge, and 403 for a wrong verify token", async () => {
    const verifyToken = `${VERIFY_TOKEN}-${idSeq}`;
    const ok = await call(webhookRoute.GET, { path: `/api/network/webhook?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444` });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe("1158201444");
    const wrong = await call(webhookRoute.GET, { path: "/api/network/webhook?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444" });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe("forbidden");
    const missing = await call(webhookRoute.GET, { path: "/api/network/webhook?hub.mode=subscribe&hub.challenge=1" });
    expect(missing.status).toBe(403);
  });
});
