import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as inboundRoute from "@/app/api/sandbox/inbound/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as conversationMessagesRoute from "@/app/v1/conversations/[id]/messages/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as listRoute from "@/app/v1/conversations/route";
import * as mediaRoute from "@/app/v1/messages/[id]/media/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as messagesRoute from "@/app/v1/messages/route";
import { getDb } from "@/db";
import { contacts, jobs, numberIntegrations } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { jobRegistry } from "@/lib/server/job-registry";
import { drainJobs } from "@/lib/jobs/runner";
import { sendQueuedMessage } from "@/lib/messages/send-queued-message";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, nextPhone, PNG } from "@/tests/support/messaging";
import { systemContext } from "@/lib/server/context";

beforeEach(() => resetRateLimiters());

const later = (ms: number) => new Date(Date.now() + ms);
const simulate = (token: string, body: unknown) => call(inboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body });
const getMessage = async (token: string, id: string) => (await call(messageRoute.GET, { path: "/", token, params: { id } })).body;

describe("sandbox: an API send reaches read on its own", () => {
  it("goes queued → sent → delivered → read with message.* events", async () => {
    const db = getDb();
    const { account, adminToken } = await createTestAccount();
    const res = await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: adminToken, body: { to: nextPhone(), type: "text", text: "Hi!" } });
    expect(res.body.status).toBe("queued");
    const id = res.body.id;

    await drainJobs({ ...systemContext(), db }, jobRegistry);
    const sent = await getMessage(adminToken, id);
    expect(sent.status).toBe("sent");

    await drainJobs({ ...systemContext(), db }, jobRegistry, { now: later(3_000) });
    expect((await getMessage(adminToken, id)).status).toBe("delivered");

    await drainJobs({ ...systemContext(), db }, jobRegistry, { now: later(10_000) });
    expect((await getMessage(adminToken, id)).status).toBe("read");

    const types = (await eventsOf(account.id)).map((e) => e.type).filter((t) => t.startsWith("message."));
    expect(types).toEqual(["message.sent", "message.delivered", "message.read"]);
    const readEvent = (await eventsOf(account.id, "message.read"))[0];
    expect(readEvent.data).toEqual({ message: expect.objectContaining({ id, status: "read", direction: "outbound" }) });
    const pending = await db.select().from(jobs).where(eq(jobs.accountId, account.id));
    expect(pending.every((j) => j.status === "done")).toBe(true);
  });

  it("does not send a message twice when its job runs again", async () => {
    const { account, adminToken } = await createTestAccount();
    const res = await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: adminToken, body: { to: nextPhone(), type: "text", text: "Once" } });
    await sendQueuedMessage(systemContext(), { messageId: res.body.id });
    const first = await getMessage(adminToken, res.body.id);
    await sendQueuedMessage(systemContext(), { messageId: res.body.id });
    expect(await getMessage(adminToken, res.body.id)).toEqual(first);
    expect(await eventsOf(account.id, "message.sent")).toHaveLength(1);
  });
});

describe("POST /api/sandbox/inbound", () => {
  it("stores a customer's message in a new conversation and emits message.received", async () => {
    const { account, adminToken } = await createTestAccount();
    const from = nextPhone();
    const res = await simulate(adminToken, { from, name: "María", type: "text", text: "Do you deliver on Sundays?" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      direction: "inbound",
      from,
      to: "15550000000",
      type: "text",
      text: "Do you deliver on Sundays?",
      status: "received",
      sender: { type: "contact" },
    });
    const conversations = await call(listRoute.GET, { path: "/v1/conversations", token: adminToken });
    expect(conversations.body.data).toHaveLength(1);
    expect(conversations.body.data[0]).toMatchObject({
      id: res.body.conversation_id,
      status: "open",
      contact: { phone: from, name: "María" },
      unread_count: 1,
      last_message_preview: "Do you deliver on Sundays?",
    });
    const [received] = await eventsOf(account.id, "message.received");
    expect(received.data).toEqual({
      message: res.body,
      conversation: { id: res.body.conversation_id, status: "open", assigned_to: null, created_at: conversations.body.data[0].created_at },
    });
    expect(await eventsOf(account.id, "conversation.created")).toHaveLength(1);
  });

  it("counts unread customer messages until someone replies, and updates the contact's name", async () => {
    const { account, adminToken } = await createTestAccount();
    const from = nextPhone();
    const first = await simulate(adminToken, { from, type: "text", text: "Hello?" });
    await simulate(adminToken, { from, name: "Ana", type: "image", media: { mime_type: "image/png", data: PNG.toString("base64"), caption: "this one" } });
    const id = first.body.conversation_id;
    const conversation = await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id } });
    expect(conversation.body).toMatchObject({ unread_count: 2, last_message_preview: "Photo: this one", contact: { name: "Ana" } });
    await call(messagesRoute.POST, { method: "POST", path: "/v1/messages", token: adminToken, body: { to: from, type: "text", text: "Hi Ana" } });
    expect((await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id } })).body.unread_count).toBe(0);
    const [contact] = await getDb().select().from(contacts).where(eq(contacts.accountId, account.id));
    expect(contact.name).toBe("Ana");
    const thread = await call(conversationMessagesRoute.GET, { path: "/", token: adminToken, params: { id } });
    expect(thread.body.data.map((m: { direction: string }) => m.direction)).toEqual(["outbound", "inbound", "inbound"]);
    const picture = thread.body.data[1];
    const file = await mediaRoute.GET(new Request("http://localhost/", { headers: { authorization: `Bearer ${adminToken}` } }), { params: Promise.resolve({ id: picture.id }) });
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("reopens the latest closed conversation when the customer writes again", async () => {
    const { account, adminToken } = await createTestAccount();
    const from = nextPhone();
    const first = await simulate(adminToken, { from, type: "text", text: "Thanks!" });
    const id = first.body.conversation_id;
    await call(closeRoute.POST, { method: "POST", path: "/", token: adminToken, params: { id } });
    const again = await simulate(adminToken, { from, type: "text", text: "One more question" });
    expect(again.body.conversation_id).toBe(id);
    expect((await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id } })).body).toMatchObject({ status: "open", closed_at: null, unread_count: 1 });
    const [reopened] = await eventsOf(account.id, "conversation.reopened");
    expect(reopened.data).toEqual({ conversation: expect.objectContaining({ id, status: "open" }) });
    const [, secondReceived] = await eventsOf(account.id, "message.received");
    expect(secondReceived.data.conversation).toMatchObject({ id, status: "open" });
  });

  it("opens one conversation when several first messages of a new number arrive at once", async () => {
    const { account, adminToken } = await createTestAccount();
    const from = nextPhone();
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => simulate(adminToken, { from, type: "text", text: `part ${i}` })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.conversation_id)).size).toBe(1);
    const rows = await countRows(account.id);
    expect([rows.contacts, rows.conversations, rows.messages]).toEqual([1, 1, 5]);
    const conversation = await call(conversationRoute.GET, { path: "/", token: adminToken, params: { id: results[0].body.conversation_id } });
    expect(conversation.body.unread_count).toBe(5);
  });

  it("refuses bad bodies with a 400 naming the field, storing nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const before = await countRows(account.id);
    for (const [body, field] of [
      [{ type: "text", text: "hi" }, "from"],
      [{ from: "+447700900123", type: "text", text: "hi" }, "from"],
      [{ from: "447700900123", type: "text" }, "text"],
      [{ from: "447700900123", type: "image", media: { mime_type: "image/png", data: "AAAA" } }, "media.data"],
    ] as const) {
      const res = await simulate(adminToken, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect(await countRows(account.id)).toEqual(before);
  });

  it("needs config:write (agents get 403) and is a 404 when the number is not a sandbox", async () => {
    const { account, adminToken } = await createTestAccount();
    const { token: agentToken } = await addTestUser(account.id, "agent");
    const agent = await simulate(agentToken, { from: nextPhone(), type: "text", text: "hi" });
    expect(agent.status).toBe(403);
    await getDb().update(numberIntegrations).set({ provider: "cloud", status: "pending" }).where(eq(numberIntegrations.accountId, account.id));
    const cloud = await simulate(adminToken, { from: nextPhone(), type: "text", text: "hi" });
    expect(cloud.status).toBe(404);
    expect(cloud.body.error.code).toBe("not_found");
    expect((await countRows(account.id)).messages).toBe(0);
  });
});
