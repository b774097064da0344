import { and, eq } from "drizzle-orm";
import { systemContext } from "@/lib/server/context";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/network/webhook/route";
import * as readRoute from "@/app/api/inbox/conversations/[id]/read/route";
import * as numberRoute from "@/app/v1/config/number/route";
import * as inboxConfigRoute from "@/app/v1/config/inbox/route";
import * as contactRoute from "@/app/v1/contacts/[id]/route";
import * as contactsRoute from "@/app/v1/contacts/route";
import * as conversationsRoute from "@/app/v1/conversations/route";
import * as typingRoute from "@/app/v1/conversations/[id]/typing/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as searchRoute from "@/app/v1/search/route";
import { getDb } from "@/db";
import { contacts, conversations } from "@/db/schema";
import { drainJobs } from "@/lib/jobs/runner";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { buildInboundPayload, type FakeCloudNetwork, type InboundMessageInput, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";

const ACCESS_TOKEN = "EAAG-fake-network-token-bsuid";
const APP_SECRET = "fake-app-secret-bsuid-0123456789";
let idSeq = 0;
let bsuidSeq = 0;

let network: FakeCloudNetwork;
let account: Awaited<ReturnType<typeof createTestAccount>>;
let restoreEnv: () => void;

beforeAll(() => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
});
afterAll(() => restoreEnv());

beforeEach(async () => {
  resetRateLimiters();
  const phoneNumberId = `30654035224${String(++idSeq).padStart(4, "0")}`;
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
      verify_token: `verify-bsuid-${idSeq}`,
      api_base_url: network.apiBaseUrl,
    },
  });
  expect(res.status).toBe(200);
});

afterEach(async () => {
  await network.close();
});

/** A fresh business-scoped user id, as the network writes them. */
const nextBsuid = () => `US.${Date.now()}${String(++bsuidSeq).padStart(6, "0")}`;
const token = () => account.adminToken;
const send = (body: unknown) => call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: token(), body });
const drain = () => drainJobs(systemContext(), jobRegistry);

async function deliver(messages: InboundMessageInput[]) {
  const rawBody = JSON.stringify(buildInboundPayload({ phoneNumberId: network.phoneNumberId, messages }));
  const res = await call(webhookRoute.POST, {
    method: "POST",
    path: "/api/network/webhook",
    rawBody,
    headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: APP_SECRET, rawBody }) },
  });
  expect(res.status).toBe(200);
  return res;
}

async function listConversations() {
  const res = await call(conversationsRoute.GET, { path: "/v1/conversations?limit=100", token: token() });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; unread_count: number; contact: { id: string; phone: string | null; network_user_id: string | null; username: string | null; name: string | null } }[];
}

async function listContacts(q?: string) {
  const res = await call(contactsRoute.GET, { path: `/v1/contacts?limit=100${q ? `&q=${encodeURIComponent(q)}` : ""}`, token: token() });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; phone: string | null; network_user_id: string | null; username: string | null; name: string | null }[];
}

const sends = () => network.requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages") && (r.body as { status?: string }).status === undefined);

describe("a customer known only by their business-scoped user id", () => {
  it("opens a conversation from a message without a phone number, continues it, and gets replies at the BSUID recipient", async () => {
    const bsuid = nextBsuid();
    await deliver([{ from: "", fromUserId: bsuid, username: "@jane.doe", name: "Jane", type: "text", text: "Hi, is the monstera in stock?" }]);
    await deliver([{ from: "", fromUserId: bsuid, username: "@jane.doe", name: "Jane", type: "text", text: "The big one" }]);

    const list = await listConversations();
    expect(list).toHaveLength(1);
    const [conversation] = list;
    expect(conversation.unread_count).toBe(2);
    expect(conversation.contact).toEqual({ id: conversation.contact.id, phone: null, network_user_id: bsuid, username: "@jane.doe", name: "Jane" });

    const contact = await call(contactRoute.GET, { path: "/", token: token(), params: { id: conversation.contact.id } });
    expect(contact.status).toBe(200);
    expect(contact.body).toMatchObject({ phone: null, network_user_id: bsuid, username: "@jane.doe" });

    const reply = await send({ conversation_id: conversation.id, type: "text", text: "Yes, two left." });
    expect(reply.status).toBe(201);
    expect(reply.body.to).toBe(bsuid);
    await drain();
    const [request] = sends();
    expect(request.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      recipient: bsuid,
      type: "text",
      text: { body: "Yes, two left.", preview_url: false },
      biz_opaque_callback_data: reply.body.id,
    });
    expect(network.acceptedMessages[0].to).toBe(bsuid);
  });

  it("sends to a BSUID given as to_user_id, into the customer's conversation", async () => {
    const bsuid = nextBsuid();
    await deliver([{ from: "", fromUserId: bsuid, type: "text", text: "Hello" }]);
    const res = await send({ to_user_id: bsuid, type: "text", text: "Hello Jane" });
    expect(res.status).toBe(201);
    const [conversation] = await listConversations();
    expect(res.body.conversation_id).toBe(conversation.id);
    await drain();
    expect(sends().map((r) => (r.body as { recipient?: string }).recipient)).toEqual([bsuid]);
  });

  it("joins a phone number that appears later to the same contact and conversation, never a second contact", async () => {
    const bsuid = nextBsuid();
    const phone = nextPhone();
    await deliver([{ from: "", fromUserId: bsuid, username: "@ana", type: "text", text: "First, without my number" }]);
    await deliver([{ from: phone, fromUserId: bsuid, username: "@ana", type: "text", text: "Now with it" }]);

    const all = await listContacts();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ phone, network_user_id: bsuid, username: "@ana" });
    const list = await listConversations();
    expect(list).toHaveLength(1);
    expect(list[0].unread_count).toBe(2);

    // Replies now go to the number the customer shared.
    const reply = await send({ conversation_id: list[0].id, type: "text", text: "Thanks" });
    expect(reply.status).toBe(201);
    await drain();
    expect(sends().map((r) => (r.body as { to?: string }).to)).toEqual([phone]);
  });

  it("merges a separate phone-only contact into the BSUID's contact when one message names both", async () => {
    const bsuid = nextBsuid();
    const phone = nextPhone();
    await deliver([{ from: phone, name: "Ana (phone)", type: "text", text: "Before usernames" }]);
    await deliver([{ from: "", fromUserId: bsuid, username: "@ana", type: "text", text: "With a username" }]);
    expect(await listContacts()).toHaveLength(2);
    const before = await listConversations();
    expect(before).toHaveLength(2);

    await deliver([{ from: phone, fromUserId: bsuid, username: "@ana", type: "text", text: "Both at once" }]);
    const all = await listContacts();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ phone, network_user_id: bsuid, username: "@ana", name: "Ana (phone)" });
    const after = await listConversations();
    expect(after).toHaveLength(2);
    expect(new Set(after.map((c) => c.contact.id))).toEqual(new Set([all[0].id]));
    const rows = await getDb().select().from(contacts).where(eq(contacts.accountId, account.account.id));
    expect(rows).toHaveLength(1);
  });

  it("is found by username in search and in the contact list", async () => {
    const bsuid = nextBsuid();
    await deliver([{ from: "", fromUserId: bsuid, username: "@plantlover_42", type: "text", text: "Hello" }]);
    await deliver([{ from: nextPhone(), name: "Somebody Else", type: "text", text: "Hello too" }]);
    const [conversation] = (await listConversations()).filter((c) => c.contact.network_user_id === bsuid);

    const res = await call(searchRoute.GET, { path: "/v1/search?q=plantlover", token: token() });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].conversation.id).toBe(conversation.id);
    expect(res.body.data[0].match.field).toBe("username");

    const found = await listContacts("@plantlover");
    expect(found.map((c) => c.network_user_id)).toEqual([bsuid]);
  });

  it("finds a username with periods by any of its parts, and by the whole", async () => {
    const bsuid = nextBsuid();
    await deliver([{ from: "", fromUserId: bsuid, username: "@fern.fan42", type: "text", text: "Hello" }]);
    for (const q of ["fern.fan42", "@fern.fan42", "fan42"]) {
      const res = await call(searchRoute.GET, { path: `/v1/search?q=${encodeURIComponent(q)}`, token: token() });
      expect(res.body.data.map((hit: { match: { field: string } }) => hit.match.field), q).toEqual(["username"]);
      expect((await listContacts(q)).map((c) => c.network_user_id), q).toEqual([bsuid]);
    }
  });

  it("drops nothing: a message with neither a number nor a BSUID is skipped, one with only a BSUID is kept", async () => {
    await deliver([{ from: "", type: "text", text: "from nobody" }]);
    expect(await listConversations()).toHaveLength(0);
    await deliver([{ from: "", fromUserId: `US.ENT.${Date.now()}`, type: "text", text: "parent id" }]);
    expect(await listConversations()).toHaveLength(1);
  });
});

describe("POST /v1/messages names its recipient exactly one way", () => {
  it.each([
    ["none of them", { type: "text", text: "hi" }, "to"],
    ["to and to_user_id", { to: "447700900123", to_user_id: "US.13491208655302741918", type: "text", text: "hi" }, "to_user_id"],
    ["to and conversation_id", { to: "447700900123", conversation_id: "conv_01jd2x8k3f0m6q1v9w4r7t5y2z", type: "text", text: "hi" }, "conversation_id"],
    ["to_user_id and conversation_id", { to_user_id: "US.13491208655302741918", conversation_id: "conv_01jd2x8k3f0m6q1v9w4r7t5y2z", type: "text", text: "hi" }, "conversation_id"],
    ["a malformed to_user_id", { to_user_id: "us.123", type: "text", text: "hi" }, "to_user_id"],
    ["a to_user_id with punctuation", { to_user_id: "US.1234-5678", type: "text", text: "hi" }, "to_user_id"],
  ])("refuses %s with a 400 naming the field and sends nothing", async (_name, body, field) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    await drain();
    expect(sends()).toHaveLength(0);
    expect(await listContacts()).toHaveLength(0);
  });
});

describe("read receipts and typing to the customer", () => {
  async function customerConversation(text = "Are you open today?") {
    const phone = nextPhone();
    const id = `wamid.${Date.now()}${++bsuidSeq}`;
    await deliver([{ from: phone, id, type: "text", text }]);
    const conversation = (await listConversations()).find((c) => c.contact.phone === phone)!;
    return { conversation, id, phone };
  }
  const markRead = (id: string) => call(readRoute.POST, { method: "POST", path: `/api/inbox/conversations/${id}/read`, token: token(), params: { id } });
  const typing = (id: string) => call(typingRoute.POST, { method: "POST", path: `/v1/conversations/${id}/typing`, token: token(), params: { id } });
  const setInbox = (body: Record<string, unknown>) => call(inboxConfigRoute.PUT, { method: "PUT", path: "/v1/config/inbox", token: token(), body });

  it("defaults both settings on and saves them through /v1/config/inbox", async () => {
    const read = await call(inboxConfigRoute.GET, { path: "/v1/config/inbox", token: token() });
    expect(read.body).toEqual({ auto_assign_on_reply: true, send_read_receipts: true, send_typing_indicator: true });
    const saved = await setInbox({ auto_assign_on_reply: true, send_read_receipts: false, send_typing_indicator: false });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ auto_assign_on_reply: true, send_read_receipts: false, send_typing_indicator: false });
    const kept = await setInbox({ auto_assign_on_reply: false });
    expect(kept.body).toEqual({ auto_assign_on_reply: false, send_read_receipts: false, send_typing_indicator: false });
    const bad = await setInbox({ auto_assign_on_reply: true, send_read_receipts: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toContain("send_read_receipts");
  });

  it("marks the newest customer message read at the network when an agent opens the conversation, once", async () => {
    const phone = nextPhone();
    await deliver([{ from: phone, id: `wamid.first${Date.now()}`, type: "text", text: "one" }]);
    const newest = `wamid.newest${Date.now()}`;
    await deliver([{ from: phone, id: newest, type: "text", text: "two" }]);
    const conversation = (await listConversations()).find((c) => c.contact.phone === phone)!;

    const res = await markRead(conversation.id);
    expect(res.status).toBe(204);
    // The request does not wait for the network: the receipt goes through the job runner.
    expect(network.readReceipts).toEqual([]);
    await drain();
    expect(network.readReceipts).toEqual([{ messageId: newest }]);
    const [request] = network.requests.filter((r) => (r.body as { status?: string }).status === "read");
    expect(request.body).toEqual({ messaging_product: "whatsapp", status: "read", message_id: newest });

    // Nothing unread any more: opening it again sends nothing.
    await markRead(conversation.id);
    await drain();
    expect(network.readReceipts).toHaveLength(1);
  });

  it("shows the customer the typing indicator while an agent types, at most once per 20 s per conversation", async () => {
    const { conversation, id } = await customerConversation();
    expect((await typing(conversation.id)).status).toBe(204);
    expect((await typing(conversation.id)).status).toBe(204);
    await drain();
    expect(network.readReceipts).toEqual([{ messageId: id, typingIndicator: { type: "text" } }]);
    const [request] = network.requests.filter((r) => (r.body as { status?: string }).status === "read");
    expect(request.body).toEqual({ messaging_product: "whatsapp", status: "read", message_id: id, typing_indicator: { type: "text" } });

    // 20 s later (the last one moved back in time), the next keystrokes send it again.
    await getDb()
      .update(conversations)
      .set({ typingIndicatorSentAt: new Date(Date.now() - 20_500) })
      .where(and(eq(conversations.accountId, account.account.id), eq(conversations.id, conversation.id)));
    await typing(conversation.id);
    await drain();
    expect(network.readReceipts).toHaveLength(2);
  });

  it("sends neither when the settings are off", async () => {
    await setInbox({ auto_assign_on_reply: true, send_read_receipts: false, send_typing_indicator: false });
    const { conversation } = await customerConversation();
    await typing(conversation.id);
    await markRead(conversation.id);
    await drain();
    expect(network.readReceipts).toEqual([]);
    expect(network.requests.filter((r) => (r.body as { status?: string } | undefined)?.status === "read")).toEqual([]);
  });

  it("sends neither to a blocked contact", async () => {
    const { conversation } = await customerConversation();
    const blocked = await call(contactRoute.PATCH, { method: "PATCH", path: "/", token: token(), params: { id: conversation.contact.id }, body: { blocked: true } });
    expect(blocked.status).toBe(200);
    await typing(conversation.id);
    await markRead(conversation.id);
    await drain();
    expect(network.readReceipts).toEqual([]);
  });

  it("reaches a BSUID-only customer too (the receipt names their message)", async () => {
    const bsuid = nextBsuid();
    const id = `wamid.bsuid${Date.now()}`;
    await deliver([{ from: "", fromUserId: bsuid, id, type: "text", text: "hello" }]);
    const [conversation] = await listConversations();
    await markRead(conversation.id);
    await drain();
    expect(network.readReceipts).toEqual([{ messageId: id }]);
  });
});
