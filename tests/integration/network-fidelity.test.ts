import { and, eq } from "drizzle-orm";
import { systemContext } from "@/lib/server/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as signupRoute from "@/app/api/network/signup/route";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as threadRoute from "@/app/v1/conversations/[id]/messages/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as templateRoute from "@/app/v1/templates/[id]/route";
import * as templatesRoute from "@/app/v1/templates/route";
import { getDb } from "@/db";
import { contacts, earlyStatuses, messages } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { resetEnvCache } from "@/lib/platform/env";
import { jobRegistry } from "@/lib/server/job-registry";
import { drainJobs } from "@/lib/jobs/runner";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import {
  buildContactSyncPayload,
  buildHistoryPayload,
  buildInboundPayload,
  buildTemplateStatusPayload,
  type FakeCloudNetwork,
  type InboundMessageInput,
  type InboundStatusInput,
  signHubPayload,
  startFakeCloudNetwork,
} from "@/tests/support/fake-cloud-network";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, nextPhone } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-fidelity";
const APP_SECRET = "fake-app-secret-fidelity-0123";
const HOUR = 3_600_000;
// The smallest WebP a sticker can be: RIFF header, size, WEBP, then a VP8L chunk.
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x1a, 0, 0, 0]), Buffer.from("WEBPVP8L"), Buffer.alloc(18, 7)]);
let idSeq = 0;

let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

async function connectCloud({ coexistence = false } = {}) {
  const res = await call(numberRoute.PUT, {
    method: "PUT",
    path: "/v1/config/number",
    token: account.adminToken,
    body: {
      provider: "cloud",
      phone_number: "+14155552671",
      phone_number_id: network.phoneNumberId,
      business_account_id: network.businessAccountId,
      access_token: ACCESS_TOKEN,
      app_secret: APP_SECRET,
      verify_token: `verify-fidelity-${idSeq}`,
      api_base_url: network.apiBaseUrl,
      coexistence,
    },
  });
  expect(res.status).toBe(200);
}

beforeEach(async () => {
  resetRateLimiters();
  idSeq += 1;
  network = await startFakeCloudNetwork({
    accessToken: ACCESS_TOKEN,
    phoneNumberId: `30654035224${String(idSeq).padStart(4, "0")}`,
    businessAccountId: `4022901293${String(idSeq).padStart(5, "0")}`,
  });
  account = await createTestAccount();
});

afterEach(async () => {
  await network.close();
});

const later = (ms: number) => new Date(Date.now() + ms);
const send = (body: unknown, token = account.adminToken) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token, body });
const getMessage = async (id: string) => (await call(messageRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body;
const getConversation = async (id: string) => (await call(conversationRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body;
const thread = async (id: string) => (await call(threadRoute.GET, { path: "/", token: account.adminToken, params: { id } })).body.data;

function postWebhook(payload: unknown) {
  const rawBody = JSON.stringify(payload);
  return call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
  });
}
const inbound = (list: InboundMessageInput[]) => buildInboundPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, messages: list });
const statuses = (list: InboundStatusInput[]) => buildInboundPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, statuses: list });

/** Posts one inbound message and returns the message.received event's message. */
async function receive(message: InboundMessageInput) {
  const before = (await eventsOf(account.account.id, "message.received")).length;
  const res = await postWebhook(inbound([message]));
  expect(res.status).toBe(200);
  await drainJobs(systemContext(), jobRegistry);
  const received = await eventsOf(account.account.id, "message.received");
  expect(received).toHaveLength(before + 1);
  return received[received.length - 1].data as { message: Record<string, any>; conversation: Record<string, any> };
}

describe("every inbound kind through the signed webhook", () => {
  beforeEach(() => connectCloud());

  it("stores a location with its place", async () => {
    const from = nextPhone();
    const { message } = await receive({ from, type: "location", payload: { latitude: 52.520008, longitude: 13.404954, name: "Plant shop", address: "Alexanderplatz 1" } });
    expect(message).toMatchObject({ type: "location", location: { latitude: 52.520008, longitude: 13.404954, name: "Plant shop", address: "Alexanderplatz 1" } });
    expect(await getMessage(message.id)).toMatchObject({ location: message.location });
    expect((await getConversation(message.conversation_id)).last_message_preview).toBe("📍 Plant shop");
  });

  it("stores shared contacts as cards", async () => {
    const { message } = await receive({
      from: nextPhone(),
      type: "contacts",
      payload: [{ name: { formatted_name: "Ana Souza" }, phones: [{ phone: "+5511987654321", wa_id: "5511987654321" }], emails: [{ email: "ana@example.com" }] }] as unknown as Record<string, unknown>,
    });
    expect(message).toMatchObject({ type: "contacts", contacts: [{ name: "Ana Souza", phones: ["+5511987654321"], emails: ["ana@example.com"] }] });
  });

  it("downloads a sticker and keeps it as a webp image", async () => {
    const mediaId = network.addMedia({ bytes: WEBP, mimeType: "image/webp" });
    const { message } = await receive({ from: nextPhone(), type: "sticker", media: { id: mediaId, mimeType: "image/webp" } });
    expect(message).toMatchObject({ type: "sticker", media: { mime_type: "image/webp", size: WEBP.length } });
  });

  it("attaches a reaction to the message it reacts to, and an empty emoji removes it", async () => {
    const from = nextPhone();
    const first = await receive({ from, id: "wamid.reacted-to", type: "text", text: "Do you have ferns?" });
    const reacted = await receive({ from, type: "reaction", payload: { message_id: "wamid.reacted-to", emoji: "❤️" } });
    expect(reacted.message).toMatchObject({ type: "reaction", reaction: { message_id: first.message.id, emoji: "❤️" }, conversation_id: first.message.conversation_id });
    expect(await getMessage(first.message.id)).toMatchObject({ reactions: [{ emoji: "❤️", from }] });
    // No new unread message: a reaction is not a bubble.
    expect((await getConversation(first.message.conversation_id)).unread_count).toBe(1);

    await receive({ from, type: "reaction", payload: { message_id: "wamid.reacted-to", emoji: "" } });
    expect(await getMessage(first.message.id)).not.toHaveProperty("reactions");
  });

  it("skips a reaction to a message Chorus never saw, answering 200", async () => {
    const before = await countRows(account.account.id);
    const res = await postWebhook(inbound([{ from: nextPhone(), type: "reaction", payload: { message_id: "wamid.unknown", emoji: "👍" } }]));
    expect(res.status).toBe(200);
    expect((await countRows(account.account.id)).messages).toBe(before.messages);
  });

  it("stores interactive button and list replies as {type, id, title}", async () => {
    const from = nextPhone();
    const button = await receive({ from, type: "interactive", payload: { type: "button_reply", button_reply: { id: "deliver_tomorrow", title: "Tomorrow" } } });
    expect(button.message).toMatchObject({ type: "interactive", interactive: { type: "button_reply", id: "deliver_tomorrow", title: "Tomorrow" } });
    const list = await receive({ from, type: "interactive", payload: { type: "list_reply", list_reply: { id: "5", title: "Excellent", description: "Five stars" } } });
    expect(list.message.interactive).toEqual({ type: "list_reply", id: "5", title: "Excellent" });
  });

  it("stores a template quick-reply tap as {text, payload}", async () => {
    const { message } = await receive({ from: nextPhone(), type: "button", payload: { text: "Stop promotions", payload: "STOP_PROMOS" } });
    expect(message).toMatchObject({ type: "button", button: { text: "Stop promotions", payload: "STOP_PROMOS" } });
  });

  it("keeps a kind it cannot show as unsupported with the network's type", async () => {
    const { message } = await receive({ from: nextPhone(), type: "order", payload: { catalog_id: "42", product_items: [] } });
    expect(message).toMatchObject({ type: "unsupported", unsupported: { network_type: "order" } });
    expect((await getConversation(message.conversation_id)).last_message_preview).toBe("Unsupported message (order)");
  });

  it("links a reply to the message it quotes", async () => {
    const from = nextPhone();
    const quoted = await receive({ from, id: "wamid.quoted-one", type: "text", text: "Price of the monstera?" });
    const reply = await receive({ from, type: "text", text: "Sorry, I meant the big one", contextId: "wamid.quoted-one" });
    expect(reply.message.context).toEqual({ message_id: quoted.message.id });
  });

  it("answers 200 to a malformed location and stores nothing of it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = await countRows(account.account.id);
    const res = await postWebhook(inbound([{ from: nextPhone(), type: "location", payload: { latitude: 123, longitude: "east" } }]));
    expect(res.status).toBe(200);
    expect(await countRows(account.account.id)).toEqual(before);
    expect(warn.mock.calls.flat().join(" ")).toContain("malformed_location");
    warn.mockRestore();
  });
});

describe("sending every kind through the cloud network", () => {
  beforeEach(() => connectCloud());

  async function openConversation() {
    const from = nextPhone();
    const first = await receive({ from, id: `wamid.in-${from}`, type: "text", text: "Hello" });
    return { from, conversationId: first.message.conversation_id as string, inboundId: first.message.id as string };
  }
  const lastBody = () => network.acceptedMessages[network.acceptedMessages.length - 1].body;

  it("sends a location, a reply with context, reply buttons and a reaction in the network's shapes", async () => {
    const { from, conversationId, inboundId } = await openConversation();
    const location = await send({ to: from, type: "location", location: { latitude: -34.6037, longitude: -58.3816, name: "Obelisco" } });
    expect(location.status).toBe(201);
    expect(location.body).toMatchObject({ type: "location", location: { latitude: -34.6037, longitude: -58.3816, name: "Obelisco" } });
    await drainJobs(systemContext(), jobRegistry);
    expect(lastBody()).toMatchObject({ type: "location", location: { latitude: -34.6037, longitude: -58.3816, name: "Obelisco" } });

    const reply = await send({ to: from, type: "text", text: "Yes, we have it", context: { message_id: inboundId } });
    expect(reply.body.context).toEqual({ message_id: inboundId });
    await drainJobs(systemContext(), jobRegistry);
    expect(lastBody()).toMatchObject({ type: "text", context: { message_id: `wamid.in-${from}` } });

    const buttons = await send({
      to: from,
      type: "interactive",
      interactive: { type: "button", body: "Deliver tomorrow?", buttons: [{ id: "yes", title: "Yes" }, { id: "no", title: "No" }] },
    });
    expect(buttons.status).toBe(201);
    await drainJobs(systemContext(), jobRegistry);
    expect(lastBody()).toMatchObject({
      type: "interactive",
      interactive: { type: "button", body: { text: "Deliver tomorrow?" }, action: { buttons: [{ type: "reply", reply: { id: "yes", title: "Yes" } }, { type: "reply", reply: { id: "no", title: "No" } }] } },
    });

    const reaction = await send({ to: from, type: "reaction", reaction: { message_id: inboundId, emoji: "👍" } });
    expect(reaction.status).toBe(201);
    expect(await getMessage(inboundId)).toMatchObject({ reactions: [{ emoji: "👍", from: "14155552671" }] });
    await drainJobs(systemContext(), jobRegistry);
    expect(lastBody()).toMatchObject({ type: "reaction", reaction: { message_id: `wamid.in-${from}`, emoji: "👍" } });
    expect((await getMessage(reaction.body.id)).status).toBe("sent");
    expect(conversationId).toMatch(/^conv_/);
  });

  it("refuses bad kinds with 400 naming the field, and sends nothing", async () => {
    const { from, inboundId } = await openConversation();
    const other = await openConversation();
    const before = network.acceptedMessages.length;
    const cases: [unknown, string][] = [
      [{ to: from, type: "location", location: { latitude: 91, longitude: 0 } }, "location.latitude"],
      [{ to: from, type: "location", location: { latitude: 0, longitude: -181 } }, "location.longitude"],
      [{ to: from, type: "location" }, "location"],
      [
        { to: from, type: "interactive", interactive: { type: "button", body: "Pick", buttons: [1, 2, 3, 4].map((n) => ({ id: `b${n}`, title: `B${n}` })) } },
        "interactive.buttons",
      ],
      [{ to: from, type: "reaction", reaction: { message_id: other.inboundId, emoji: "👍" } }, "reaction.message_id"],
      [{ to: from, type: "text", text: "hi", context: { message_id: other.inboundId } }, "context.message_id"],
      [{ to: from, type: "text", text: "hi", location: { latitude: 1, longitude: 1 } }, "location"],
      [{ to: from, type: "template", template: { name: "does_not_exist", language: "en_US", variables: [] } }, "template.name"],
    ];
    for (const [body, field] of cases) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages).toHaveLength(before);
    expect(await getMessage(inboundId)).not.toHaveProperty("reactions");
  });

  it("applies a status that arrives before the send recorded the network's id", async () => {
    const { from } = await openConversation();
    const res = await send({ to: from, type: "text", text: "On its way" });
    network.setNextMessageId("wamid.early-bird");
    expect((await postWebhook(statuses([{ id: "wamid.early-bird", status: "delivered", recipientId: from }]))).status).toBe(200);
    expect(await getDb().select().from(earlyStatuses).where(eq(earlyStatuses.accountId, account.account.id))).toHaveLength(1);
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(res.body.id)).status).toBe("delivered");
    expect((await eventsOf(account.account.id, "message.delivered")).map((e) => (e.data as { message: { id: string } }).message.id)).toEqual([res.body.id]);
    expect(await getDb().select().from(earlyStatuses).where(eq(earlyStatuses.accountId, account.account.id))).toHaveLength(0);
  });
});

describe("the customer-service window", () => {
  beforeEach(() => connectCloud());

  it("opens for 24 h from the customer's network timestamp; afterwards only an approved template goes out", async () => {
    const from = nextPhone();
    const sentAt = new Date(Date.now() - 25 * HOUR);
    const { message } = await receive({ from, type: "text", text: "Is the shop open on Sunday?", timestamp: sentAt });
    const conversation = await getConversation(message.conversation_id);
    const expected = Math.floor(sentAt.getTime() / 1000) * 1000 + 24 * HOUR;
    expect(new Date(conversation.service_window_expires_at).getTime()).toBe(expected);

    const before = network.acceptedMessages.length;
    for (const body of [
      { to: from, type: "text", text: "Sorry for the delay" },
      { to: from, type: "location", location: { latitude: 1, longitude: 1 } },
      { to: from, type: "reaction", reaction: { message_id: message.id, emoji: "👍" } },
    ]) {
      const res = await send(body);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("outside_service_window");
    }

    const created = await call(templatesRoute.POST, {
      method: "POST",
      path: "/v1/templates",
      token: account.adminToken,
      body: { name: "sunday_hours", language: "en_US", category: "UTILITY", components: { body: { text: "Hi {{1}}, we open on Sundays from {{2}}." } } },
    });
    expect(created.status).toBe(201);
    const unapproved = await send({ to: from, type: "template", template: { name: "sunday_hours", language: "en_US", variables: ["Lucía", "10:00"] } });
    expect(unapproved.status).toBe(409);
    expect(unapproved.body.error.code).toBe("template_not_approved");

    network.templates.get("sunday_hours:en_US")!.status = "APPROVED";
    await postWebhook(buildTemplateStatusPayload({ businessAccountId: network.businessAccountId, template: network.templates.get("sunday_hours:en_US")!, event: "APPROVED" }));
    const wrongCount = await send({ to: from, type: "template", template: { name: "sunday_hours", language: "en_US", variables: ["Lucía"] } });
    expect(wrongCount.status).toBe(400);
    expect(wrongCount.body.error.details[0].path).toBe("template.variables");
    await drainJobs(systemContext(), jobRegistry);
    expect(network.acceptedMessages).toHaveLength(before);

    const sent = await send({ to: from, type: "template", template: { name: "sunday_hours", language: "en_US", variables: ["Lucía", "10:00"] } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ type: "template", text: "Hi Lucía, we open on Sundays from 10:00.", template: { name: "sunday_hours", language: "en_US", variables: ["Lucía", "10:00"] } });
    await drainJobs(systemContext(), jobRegistry);
    expect((await getMessage(sent.body.id)).status).toBe("sent");
    expect(network.acceptedMessages[network.acceptedMessages.length - 1].body).toMatchObject({
      type: "template",
      template: { name: "sunday_hours", language: { code: "en_US" }, components: [{ type: "body", parameters: [{ type: "text", text: "Lucía" }, { type: "text", text: "10:00" }] }] },
    });
  });

  it("lets a free-form message through inside the window", async () => {
    const from = nextPhone();
    await receive({ from, type: "text", text: "Hi", timestamp: new Date(Date.now() - 23 * HOUR) });
    expect((await send({ to: from, type: "text", text: "Hello!" })).status).toBe(201);
  });
});

describe("templates", () => {
  const body = (name: string, text = "Your order {{1}} has shipped.") => ({ name, language: "en_US", category: "UTILITY", components: { body: { text }, buttons: [{ type: "QUICK_REPLY", text: "Thanks" }] } });
  const create = (input: unknown, token = account.adminToken) => call(templatesRoute.POST, { method: "POST", path: "/v1/templates", token, body: input });

  it("sandbox: approves about 2 s later, rejects a body containing REJECT, and emits template.updated", async () => {
    const good = await create(body("order_shipped"));
    expect(good.status).toBe(201);
    expect(good.body).toMatchObject({ id: expect.stringMatching(/^tpl_/), status: "PENDING", variables: 1 });
    const bad = await create(body("bad_one", "REJECT this {{1}}"));
    await drainJobs(systemContext(), jobRegistry);
    expect((await call(templateRoute.GET, { path: "/", token: account.adminToken, params: { id: good.body.id } })).body.status).toBe("PENDING");
    await drainJobs(systemContext(), jobRegistry, { now: later(2_500) });
    expect((await call(templateRoute.GET, { path: "/", token: account.adminToken, params: { id: good.body.id } })).body.status).toBe("APPROVED");
    expect((await call(templateRoute.GET, { path: "/", token: account.adminToken, params: { id: bad.body.id } })).body).toMatchObject({
      status: "REJECTED",
      rejected_reason: expect.stringContaining("REJECT"),
    });
    const updates = await eventsOf(account.account.id, "template.updated");
    expect(updates.map((e) => (e.data as { template: { status: string } }).template.status).sort()).toEqual(["APPROVED", "REJECTED"]);

    // The sandbox sends approved templates, even to a number that never wrote.
    const sent = await send({ to: nextPhone(), type: "template", template: { name: "order_shipped", language: "en_US", variables: ["#1042"] } });
    expect(sent.status).toBe(201);
    expect(sent.body.text).toBe("Your order #1042 has shipped.");
    const rejected = await send({ to: nextPhone(), type: "template", template: { name: "bad_one", language: "en_US", variables: ["x"] } });
    expect(rejected.status).toBe(409);
  });

  it("validates names, languages, categories and variable numbering, and refuses a duplicate", async () => {
    const cases: [unknown, string][] = [
      [{ ...body("x"), name: "Has Spaces" }, "name"],
      [{ ...body("x"), language: "english" }, "language"],
      [{ ...body("x"), category: "PROMO" }, "category"],
      [body("gap", "Hi {{1}} and {{3}}"), "components.body.text"],
      [{ ...body("x"), components: { body: { text: "Hi" }, header: { text: "Dear {{1}}" } } }, "components.header.text"],
    ];
    for (const [input, field] of cases) {
      const res = await create(input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect((await create(body("twice"))).status).toBe(201);
    expect((await create(body("twice"))).status).toBe(409);
    const agent = await addTestUser(account.account.id, "agent");
    expect((await create(body("agent_try"), agent.token)).status).toBe(403);
    expect((await call(templatesRoute.GET, { path: "/v1/templates", token: agent.token })).status).toBe(200);
  });

  it("cloud: submits to the network, takes its verdict from the webhook, deletes there too", async () => {
    await connectCloud();
    const created = await create(body("restock_alert"));
    expect(created.status).toBe(201);
    const submitted = network.templates.get("restock_alert:en_US")!;
    expect(submitted.components).toEqual([
      { type: "BODY", text: "Your order {{1}} has shipped.", example: { body_text: [["sample 1"]] } },
      { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Thanks" }] },
    ]);
    await postWebhook(buildTemplateStatusPayload({ businessAccountId: network.businessAccountId, template: submitted, event: "REJECTED", reason: "INVALID_FORMAT" }));
    expect((await call(templateRoute.GET, { path: "/", token: account.adminToken, params: { id: created.body.id } })).body).toMatchObject({
      status: "REJECTED",
      rejected_reason: "INVALID_FORMAT",
    });
    expect(await eventsOf(account.account.id, "template.updated")).toHaveLength(1);

    network.failNext({ status: 400, body: { error: { message: "Invalid parameter", code: 100, error_data: { details: "Template is in use" } } }, path: /message_templates/ });
    const refused = await call(templateRoute.DELETE, { method: "DELETE", path: "/", token: account.adminToken, params: { id: created.body.id } });
    expect(refused.status).toBe(502);
    expect(refused.body.error.message).toContain("Template is in use");
    expect(network.templates.has("restock_alert:en_US")).toBe(true);
    const deleted = await call(templateRoute.DELETE, { method: "DELETE", path: "/", token: account.adminToken, params: { id: created.body.id } });
    expect(deleted.status).toBe(204);
    expect(network.templates.has("restock_alert:en_US")).toBe(false);
    expect((await call(templateRoute.GET, { path: "/", token: account.adminToken, params: { id: created.body.id } })).status).toBe(404);
  });

  it("cloud: a template the network refuses is a 502 with its message, and nothing is stored", async () => {
    await connectCloud();
    network.failNext({ status: 400, body: { error: { message: "Invalid parameter", code: 100, error_data: { details: "Body has too many variables" } } }, path: /message_templates/ });
    const res = await create(body("too_many"));
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: "network_error", message: expect.stringContaining("Body has too many variables") });
    expect((await call(templatesRoute.GET, { path: "/v1/templates", token: account.adminToken })).body.data).toEqual([]);
  });
});

describe("guided sign-up", () => {
  let restoreSignupEnv: () => void;
  beforeEach(() => {
    restoreSignupEnv = setEnv({
      NETWORK_APP_ID: network.signup.appId,
      NETWORK_APP_SECRET: network.signup.appSecret,
      NETWORK_CONFIG_ID: "cfg-1",
      NETWORK_API_BASE_URL: network.apiBaseUrl,
    });
    resetEnvCache();
  });
  afterEach(() => {
    restoreSignupEnv();
    resetEnvCache();
  });
  const signup = (body: unknown, token = account.adminToken) => call(signupRoute.POST, { method: "POST", path: "/api/network/signup", token, body });

  it("exchanges the code, subscribes the app, registers the number and stores it connected", async () => {
    const res = await signup({ code: network.signup.code, business_account_id: network.businessAccountId, phone_number_id: network.phoneNumberId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      display_phone_number: "+1 555-010-0199",
      verified_name: "Chorus Test Business",
      steps: [
        { step: "exchange_code", status: "done" },
        { step: "subscribe_app", status: "done" },
        { step: "register_number", status: "done" },
        { step: "read_number", status: "done" },
      ],
      number: { provider: "cloud", phone_number: "+15550100199", phone_number_id: network.phoneNumberId, status: "connected", access_token_set: true, app_secret_set: true },
    });
    expect(res.text).not.toContain(ACCESS_TOKEN);
    expect(network.subscribedApps).toBe(true);
    expect(network.registeredPin).toMatch(/^\d{6}$/);
    const exchange = network.requests.find((r) => r.path.endsWith("/oauth/access_token"))!;
    expect(exchange.query).toEqual({ client_id: network.signup.appId, client_secret: network.signup.appSecret, code: network.signup.code });
  });

  it("skips the registration with coexistence", async () => {
    const res = await signup({ code: network.signup.code, business_account_id: network.businessAccountId, phone_number_id: network.phoneNumberId, coexistence: true });
    expect(res.status).toBe(200);
    expect(res.body.steps[2]).toEqual({ step: "register_number", status: "skipped" });
    expect(res.body.number.coexistence).toBe(true);
    expect(network.registeredPin).toBeNull();
  });

  it("shows the failing step with the network's message and stores nothing", async () => {
    const bad = await signup({ code: "expired-code", business_account_id: network.businessAccountId, phone_number_id: network.phoneNumberId });
    expect(bad.status).toBe(502);
    expect(bad.body.error).toMatchObject({ code: "network_error", message: "Exchanging the sign-up code failed: Invalid verification code format.", details: [{ path: "exchange_code" }] });
    expect(bad.text).not.toContain(network.signup.appSecret);

    network.failNext({ status: 400, body: { error: { message: "(#133005) Two step verification PIN mismatch", code: 133005 } }, path: /register$/ });
    const pin = await signup({ code: network.signup.code, business_account_id: network.businessAccountId, phone_number_id: network.phoneNumberId });
    expect(pin.status).toBe(502);
    expect(pin.body.error).toMatchObject({ message: "Registering the number failed: (#133005) Two step verification PIN mismatch", details: [{ path: "register_number" }] });
    const config = await call(numberRoute.GET, { path: "/", token: account.adminToken });
    expect(config.body.provider).toBe("sandbox");
  });

  it("refuses missing fields, agents, and a server without the app's settings", async () => {
    const missing = await signup({ business_account_id: network.businessAccountId });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["code", "phone_number_id"]);
    const agent = await addTestUser(account.account.id, "agent");
    expect((await signup({ code: "x", business_account_id: "1", phone_number_id: "2" }, agent.token)).status).toBe(403);
    restoreSignupEnv();
    restoreSignupEnv = setEnv({ NETWORK_APP_ID: "", NETWORK_APP_SECRET: "" });
    resetEnvCache();
    const unconfigured = await signup({ code: "x", business_account_id: "1", phone_number_id: "2" });
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.error.code).toBe("signup_not_configured");
  });
});

describe("coexistence sync", () => {
  beforeEach(() => connectCloud({ coexistence: true }));

  it("imports history once, with its own times and no events, and syncs contact names", async () => {
    const customer = nextPhone();
    const day = new Date(Date.now() - 3 * 24 * HOUR);
    const payload = buildHistoryPayload({
      phoneNumberId: network.phoneNumberId,
      businessAccountId: network.businessAccountId,
      threads: [
        {
          customer,
          messages: [
            { id: "wamid.h1", from: customer, type: "text", text: "Do you ship to Córdoba?", timestamp: day },
            { id: "wamid.h2", from: "14155552671", type: "text", text: "Yes, in 3 days", timestamp: new Date(day.getTime() + 60_000) },
            { id: "wamid.h3", from: customer, type: "location", payload: { latitude: -31.4, longitude: -64.18 }, timestamp: new Date(day.getTime() + 120_000) },
          ],
        },
      ],
    });
    const eventsBefore = (await countRows(account.account.id)).events;
    expect((await postWebhook(payload)).status).toBe(200);
    expect((await postWebhook(payload)).status).toBe(200);
    expect((await countRows(account.account.id)).events).toBe(eventsBefore);
    const rows = await getDb().select().from(messages).where(eq(messages.accountId, account.account.id));
    expect(rows.map((r) => [r.networkMessageId, r.direction, r.type]).sort()).toEqual([
      ["wamid.h1", "inbound", "text"],
      ["wamid.h2", "outbound", "text"],
      ["wamid.h3", "inbound", "location"],
    ]);
    expect(rows.find((r) => r.networkMessageId === "wamid.h1")!.createdAt.getTime()).toBe(Math.floor(day.getTime() / 1000) * 1000);
    const conversationId = rows[0].conversationId;
    const listed = await thread(conversationId);
    expect(listed.map((m: { network_message_id?: string; text?: string }) => m.text ?? null)).toEqual([null, "Yes, in 3 days", "Do you ship to Córdoba?"]);
    // Three days old: the window has long closed.
    expect((await send({ to: customer, type: "text", text: "Still interested?" })).status).toBe(409);

    await postWebhook(buildContactSyncPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, contacts: [{ phone: customer, name: "Martina Díaz" }] }));
    const [contact] = await getDb().select().from(contacts).where(and(eq(contacts.accountId, account.account.id), eq(contacts.phone, customer)));
    expect(contact.name).toBe("Martina Díaz");
    expect((await getConversation(conversationId)).contact.name).toBe("Martina Díaz");
  });

  it("ignores history for a number that is not in coexistence", async () => {
    await connectCloud({ coexistence: false });
    const customer = nextPhone();
    await postWebhook(
      buildHistoryPayload({ phoneNumberId: network.phoneNumberId, businessAccountId: network.businessAccountId, threads: [{ customer, messages: [{ from: customer, type: "text", text: "old" }] }] }),
    );
    expect((await countRows(account.account.id)).messages).toBe(0);
  });
});

describe("the sandbox simulates every kind", () => {
  it("stores each kind a simulated customer sends, reactions and quotes by Chorus id", async () => {
    const sandbox = await import("@/app/api/sandbox/inbound/route");
    const simulate = (body: unknown) => call(sandbox.POST, { method: "POST", path: "/api/sandbox/inbound", token: account.adminToken, body });
    const from = nextPhone();
    const text = await simulate({ from, type: "text", text: "hi" });
    expect(text.status).toBe(201);
    const cases = [
      { type: "location", location: { latitude: 40.4168, longitude: -3.7038, name: "Sol" } },
      { type: "contacts", contacts: [{ name: "Ana", phones: ["+34600000000"] }] },
      { type: "sticker", media: { mime_type: "image/webp", data: WEBP.toString("base64") } },
      { type: "interactive", interactive: { type: "button_reply", id: "yes", title: "Yes" } },
      { type: "button", button: { text: "Stop", payload: "STOP" } },
      { type: "unsupported", unsupported: { network_type: "order" } },
      { type: "text", text: "quoting", context: { message_id: text.body.id } },
    ];
    for (const body of cases) {
      const res = await simulate({ from, ...body });
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(res.body.type).toBe(body.type);
    }
    const reaction = await simulate({ from, type: "reaction", reaction: { message_id: text.body.id, emoji: "🎉" } });
    expect(reaction.status).toBe(201);
    expect(await getMessage(text.body.id)).toMatchObject({ reactions: [{ emoji: "🎉", from }] });
    const badSticker = await simulate({ from, type: "sticker", media: { mime_type: "image/png", data: WEBP.toString("base64") } });
    expect(badSticker.status).toBe(400);
    const unknown = await simulate({ from, type: "reaction", reaction: { message_id: "msg_01jd2x8k3f0m6q1v9w4r7t5y2z", emoji: "🎉" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe("reaction.message_id");
  });
});
