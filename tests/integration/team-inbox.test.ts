import { and, count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as cannedReplyRoute from "@/app/v1/canned-replies/[id]/route";
import * as cannedRepliesRoute from "@/app/v1/canned-replies/route";
import * as inboxConfigRoute from "@/app/v1/config/inbox/route";
import * as activityRoute from "@/app/v1/conversations/[id]/activity/route";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as notesRoute from "@/app/v1/conversations/[id]/notes/route";
import * as reopenRoute from "@/app/v1/conversations/[id]/reopen/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as typingRoute from "@/app/v1/conversations/[id]/typing/route";
import * as unassignRoute from "@/app/v1/conversations/[id]/unassign/route";
import * as messagesRoute from "@/app/v1/messages/route";
import * as readRoute from "@/app/v1/notifications/read/route";
import * as notificationsRoute from "@/app/v1/notifications/route";
import * as userRoute from "@/app/v1/users/[id]/route";
import * as webhooksRoute from "@/app/v1/webhooks/route";
import * as inboxListRoute from "@/app/api/inbox/conversations/route";
import { getDb } from "@/db";
import { conversationActivities, conversationNotes, events, jobs, messages, notifications, webhookDeliveries, webhooks } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { createApiToken } from "@/lib/auth/api-tokens";
import type { Scope } from "@/lib/auth/scopes";
import { fillCannedReply } from "@/lib/canned-replies/schemas";
import { newId } from "@/lib/platform/ids";
import { receiveInboundMessage } from "@/lib/messages/receive-inbound";
import { runAutoReplies, type SendAutomatedMessage } from "@/lib/auto-replies/auto-replies";
import { updateBusinessProfile } from "@/lib/profile/business-profile";
import { businessProfileInput } from "@/lib/profile/schemas";
import { call } from "@/tests/support/api";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";
import { systemContext, verbContext } from "@/lib/server/context";

beforeEach(() => resetRateLimiters());

let networkSeq = 0;
/** A customer's first message: a new open, unassigned conversation. */
async function customerWrites(accountId: string, text = "Hola, ¿tienen macetas?", from = nextPhone(), name = "María Gómez") {
  const result = await receiveInboundMessage(systemContext(), {
    accountId,
    inbound: { networkMessageId: `wamid.team-${Date.now()}-${++networkSeq}`, from, name, type: "text", text },
  });
  if (!("message" in result)) throw new Error(`the message was skipped: ${result.skipped}`);
  const { message } = result;
  return { conversationId: message.conversation_id, phone: from, messageId: message.id };
}

async function scopedToken(adminToken: string, permissions: Scope[]) {
  const ctx = await bearerContext(adminToken);
  return (await createApiToken({ ctx, input: { name: "scoped", permissions, expires_at: new Date(Date.now() + 3 * 86_400_000) } })).token;
}

const post = (route: { POST: any }, path: string, token: string | undefined, body?: unknown, params: Record<string, string> = {}) =>
  call(route.POST, { method: "POST", path, token, body, params });
const get = (route: { GET: any }, path: string, token: string | undefined, params: Record<string, string> = {}) => call(route.GET, { path, token, params });

const addNote = (token: string, id: string, body: unknown) => post(notesRoute, `/v1/conversations/${id}/notes`, token, body, { id });
const listNotes = (token: string, id: string, query = "") => get(notesRoute, `/v1/conversations/${id}/notes${query}`, token, { id });
const listActivity = (token: string, id: string, query = "") => get(activityRoute, `/v1/conversations/${id}/activity${query}`, token, { id });
const act = (route: { POST: any }, name: string, token: string, id: string, body?: unknown) =>
  post(route, `/v1/conversations/${id}/${name}`, token, body ?? {}, { id });
// A reply names its conversation only (`to` is for starting one); `_to` is the customer's number, for reading.
const reply = (token: string, _to: string, conversationId: string, text = "¡Hola! Sí, tenemos.") =>
  post(messagesRoute, "/v1/messages", token, { type: "text", text, conversation_id: conversationId });
const typing = (token: string | undefined, id: string, body: unknown = {}) => post(typingRoute, `/v1/conversations/${id}/typing`, token, body, { id });

async function rowCounts(accountId: string) {
  const db = getDb();
  const n = async (table: typeof conversationNotes | typeof notifications | typeof events) =>
    (await db.select({ n: count() }).from(table).where(eq(table.accountId, accountId)))[0].n;
  return { notes: await n(conversationNotes), notifications: await n(notifications), events: await n(events) };
}

describe("notes", () => {
  it("adds a note with mentions: note_ id, note.created, a notification for each mentioned teammate, nothing sent", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const { conversationId } = await customerWrites(account.id);
    const messagesBefore = (await getDb().select({ n: count() }).from(messages).where(eq(messages.conversationId, conversationId)))[0].n;
    const jobsBefore = (await getDb().select({ n: count() }).from(jobs).where(eq(jobs.accountId, account.id)))[0].n;

    const res = await addNote(adminToken, conversationId, { text: "@Bruno can you check the stock?", mentions: [bruno.user.id, bruno.user.id, admin.id] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^note_[0-9a-z]{26}$/),
      conversation_id: conversationId,
      author: { id: admin.id, name: admin.name },
      text: "@Bruno can you check the stock?",
      mentions: [bruno.user.id, admin.id],
      created_at: expect.stringMatching(/Z$/),
    });

    const [event] = await eventsOf(account.id, "note.created");
    expect(event.data).toEqual({ note: res.body, conversation: expect.objectContaining({ id: conversationId, status: "open" }) });
    // Never sent to the network: no message, no send job.
    expect((await getDb().select({ n: count() }).from(messages).where(eq(messages.conversationId, conversationId)))[0].n).toBe(messagesBefore);
    expect((await getDb().select({ n: count() }).from(jobs).where(eq(jobs.accountId, account.id)))[0].n).toBe(jobsBefore);

    // Bruno is notified; the author, who mentioned themself, is not.
    const brunos = await get(notificationsRoute, "/v1/notifications", bruno.token);
    expect(brunos.status).toBe(200);
    expect(brunos.body.unread_count).toBe(1);
    expect(brunos.body.data).toEqual([
      {
        id: expect.stringMatching(/^ntf_/),
        type: "mention",
        conversation_id: conversationId,
        note_id: res.body.id,
        actor: { id: admin.id, name: admin.name },
        text: "@Bruno can you check the stock?",
        contact: expect.objectContaining({ name: "María Gómez" }),
        read_at: null,
        created_at: res.body.created_at,
      },
    ]);
    expect((await get(notificationsRoute, "/v1/notifications", adminToken)).body).toMatchObject({ data: [], unread_count: 0 });
  });

  it("refuses a mention of another account's user or of a deleted user with a 400 naming it, and writes nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const stranger = await addTestUser(other.account.id, "agent");
    const leaving = await addTestUser(account.id, "agent", "Leaving");
    const staying = await addTestUser(account.id, "agent", "Staying");
    expect((await call(userRoute.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id: leaving.user.id } })).status).toBe(204);
    const { conversationId } = await customerWrites(account.id);
    const before = await rowCounts(account.id);

    const foreign = await addNote(adminToken, conversationId, { text: "hi", mentions: [staying.user.id, stranger.user.id] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: "validation_error", details: [{ path: "mentions.1", message: "is not a user of this account" }] });
    const deleted = await addNote(adminToken, conversationId, { text: "hi", mentions: [leaving.user.id] });
    expect(deleted.status).toBe(400);
    expect(deleted.body.error.details[0].path).toBe("mentions.0");
    expect(await rowCounts(account.id)).toEqual(before);
  });

  it("validates text and mentions, and answers 401, 403 and 404 like every route", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const { conversationId } = await customerWrites(account.id);
    const theirs = await customerWrites(other.account.id);
    const readOnly = await scopedToken(adminToken, ["conversations:read"]);
    const before = await rowCounts(account.id);
    const cases: [unknown, string][] = [
      [{}, "text"],
      [{ text: "   " }, "text"],
      [{ text: "x".repeat(4097) }, "text"],
      [{ text: 5 }, "text"],
      [{ text: "ok", mentions: "usr_x" }, "mentions"],
      [{ text: "ok", mentions: ["bruno"] }, "mentions.0"],
    ];
    for (const [body, path] of cases) {
      const res = await addNote(adminToken, conversationId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details[0].path).toBe(path);
    }
    expect((await addNote(adminToken, theirs.conversationId, { text: "peek" })).status).toBe(404);
    expect((await listNotes(adminToken, theirs.conversationId)).status).toBe(404);
    expect((await addNote(readOnly, conversationId, { text: "no" })).status).toBe(403);
    expect((await call(notesRoute.POST, { method: "POST", path: "/", body: { text: "x" }, params: { id: conversationId } })).status).toBe(401);
    expect(await rowCounts(account.id)).toEqual(before);
    expect((await listNotes(readOnly, conversationId)).status).toBe(200);
  });

  it("lists notes newest first in cursor pages; a forged cursor is a 400", async () => {
    const { adminToken, account } = await createTestAccount();
    const { conversationId } = await customerWrites(account.id);
    const ids: string[] = [];
    for (const text of ["one", "two", "three"]) ids.push((await addNote(adminToken, conversationId, { text })).body.id);
    const first = await listNotes(adminToken, conversationId, "?limit=2");
    expect(first.body.data.map((n: { text: string }) => n.text)).toEqual(["three", "two"]);
    expect(first.body.pagination.has_more).toBe(true);
    const second = await listNotes(adminToken, conversationId, `?limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(second.body.data.map((n: { id: string }) => n.id)).toEqual([ids[0]]);
    expect(second.body.pagination).toEqual({ next_cursor: null, has_more: false });
    expect((await listNotes(adminToken, conversationId, "?cursor=forged")).status).toBe(400);
    expect((await listNotes(adminToken, conversationId, "?limit=101")).status).toBe(400);
  });
});

describe("notifications", () => {
  it("marks only the caller's own notifications read, by ids or all; any valid token may", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const { conversationId } = await customerWrites(account.id);
    const other = await customerWrites(account.id);
    await addNote(adminToken, conversationId, { text: "@Bruno one", mentions: [bruno.user.id] });
    await addNote(adminToken, other.conversationId, { text: "@Bruno two", mentions: [bruno.user.id] });
    await addNote(bruno.token, conversationId, { text: "@Ada mine", mentions: [admin.id] });

    const list = await get(notificationsRoute, "/v1/notifications", bruno.token);
    expect(list.body.data.map((n: { text: string }) => n.text)).toEqual(["@Bruno two", "@Bruno one"]);
    const [two, one] = list.body.data.map((n: { id: string }) => n.id);
    const adminsOwn = (await get(notificationsRoute, "/v1/notifications", adminToken)).body.data[0].id;

    // Someone else's id changes nothing.
    const foreign = await post(readRoute, "/v1/notifications/read", bruno.token, { ids: [adminsOwn] });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual({ updated: 0, unread_count: 2 });
    expect((await get(notificationsRoute, "/v1/notifications", adminToken)).body.unread_count).toBe(1);

    const marked = await post(readRoute, "/v1/notifications/read", bruno.token, { ids: [one] });
    expect(marked.body).toEqual({ updated: 1, unread_count: 1 });
    const unread = await get(notificationsRoute, "/v1/notifications?unread=true", bruno.token);
    expect(unread.body.data.map((n: { id: string }) => n.id)).toEqual([two]);
    const paged = await get(notificationsRoute, "/v1/notifications?limit=1", bruno.token);
    expect(paged.body.pagination.has_more).toBe(true);

    // An api token with no conversation scope still reads its owner's notifications.
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
    expect((await get(notificationsRoute, "/v1/notifications", reportsOnly)).body.unread_count).toBe(1);
    expect((await post(readRoute, "/v1/notifications/read", reportsOnly, { all: true })).body).toEqual({ updated: 1, unread_count: 0 });
    expect((await post(readRoute, "/v1/notifications/read", bruno.token, { all: true })).body).toEqual({ updated: 1, unread_count: 0 });
    expect((await get(notificationsRoute, "/v1/notifications", bruno.token)).body.data.every((n: { read_at: string | null }) => n.read_at)).toBe(true);
  });

  it("refuses a malformed body or query with a 400, and no token with a 401", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const { conversationId } = await customerWrites(account.id);
    await addNote(bruno.token, conversationId, { text: "@Ada", mentions: [admin.id] });
    for (const body of [{}, { ids: [] }, { ids: ["nope"] }, { all: false }, { ids: [], all: true }, []]) {
      const res = await post(readRoute, "/v1/notifications/read", adminToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
    }
    expect((await get(notificationsRoute, "/v1/notifications", adminToken)).body.unread_count).toBe(1);
    expect((await get(notificationsRoute, "/v1/notifications?unread=maybe", adminToken)).status).toBe(400);
    expect((await get(notificationsRoute, "/v1/notifications", undefined)).status).toBe(401);
    expect((await post(readRoute, "/v1/notifications/read", undefined, { all: true })).status).toBe(401);
  });

  it("the inbox's Mentions filter lists the conversations where I am mentioned", async () => {
    const { account, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const mentioned = await customerWrites(account.id);
    await customerWrites(account.id);
    await addNote(adminToken, mentioned.conversationId, { text: "@Bruno", mentions: [bruno.user.id] });
    await addNote(adminToken, mentioned.conversationId, { text: "@Bruno again", mentions: [bruno.user.id] });
    const mine = await get(inboxListRoute, "/api/inbox/conversations?filter=mentions", bruno.token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((c: { id: string }) => c.id)).toEqual([mentioned.conversationId]);
    expect((await get(inboxListRoute, "/api/inbox/conversations?filter=mentions", adminToken)).body.data).toEqual([]);
  });
});

describe("activity", () => {
  it("records creation, assign, unassign, close and reopen with who did it, newest first", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const { conversationId } = await customerWrites(account.id);
    expect((await act(assignRoute, "assign", adminToken, conversationId, { user_id: bruno.user.id })).status).toBe(200);
    expect((await act(unassignRoute, "unassign", bruno.token, conversationId)).status).toBe(200);
    expect((await act(closeRoute, "close", adminToken, conversationId)).status).toBe(200);
    expect((await act(reopenRoute, "reopen", bruno.token, conversationId)).status).toBe(200);
    // A refused transition records nothing.
    expect((await act(unassignRoute, "unassign", adminToken, conversationId)).status).toBe(409);

    const res = await listActivity(adminToken, conversationId);
    expect(res.status).toBe(200);
    const ada = { type: "user", id: admin.id, name: admin.name };
    const b = { type: "user", id: bruno.user.id, name: "Bruno" };
    expect(res.body.data.map((a: any) => ({ type: a.type, actor: a.actor, data: a.data }))).toEqual([
      { type: "reopened", actor: b, data: {} },
      { type: "closed", actor: ada, data: {} },
      { type: "unassigned", actor: b, data: { previous_assignee: { id: bruno.user.id, name: "Bruno" } } },
      { type: "assigned", actor: ada, data: { assignee: { id: bruno.user.id, name: "Bruno" } } },
      { type: "created", actor: { type: "contact", id: expect.stringMatching(/^ctc_/), name: "María Gómez" }, data: {} },
    ]);
    expect(res.body.data[0]).toMatchObject({ id: expect.stringMatching(/^act_/), conversation_id: conversationId, created_at: expect.stringMatching(/Z$/) });

    const page = await listActivity(adminToken, conversationId, "?limit=2");
    expect(page.body.data).toHaveLength(2);
    const rest = await listActivity(adminToken, conversationId, `?limit=10&cursor=${encodeURIComponent(page.body.pagination.next_cursor)}`);
    expect(rest.body.data.map((a: { type: string }) => a.type)).toEqual(["unassigned", "assigned", "created"]);
  });

  it("records a reopen by the customer's message, a send that starts a conversation, and a deletion that unassigns", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const started = await post(messagesRoute, "/v1/messages", bruno.token, { to: nextPhone(), type: "text", text: "Your order shipped" });
    expect(started.status).toBe(201);
    const types = async (id: string) => (await listActivity(adminToken, id)).body.data.map((a: any) => [a.type, a.actor.type, a.actor.name ?? null]);
    expect(await types(started.body.conversation_id)).toEqual([
      ["assigned", "user", "Bruno"],
      ["created", "user", "Bruno"],
    ]);

    const { conversationId, phone } = await customerWrites(account.id);
    await act(closeRoute, "close", adminToken, conversationId);
    await customerWrites(account.id, "¿Hola?", phone);
    expect((await types(conversationId))[0]).toEqual(["reopened", "contact", "María Gómez"]);

    await act(assignRoute, "assign", adminToken, conversationId, { user_id: bruno.user.id });
    await call(userRoute.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id: bruno.user.id } });
    const [latest] = (await listActivity(adminToken, conversationId)).body.data;
    expect(latest).toMatchObject({
      type: "unassigned",
      actor: { type: "user", id: admin.id },
      data: { previous_assignee: { id: bruno.user.id, name: "Bruno" }, reason: "user_deleted" },
    });
    // The trail keeps a deleted user's name.
    expect(await types(started.body.conversation_id)).toEqual([
      ["unassigned", "user", admin.name],
      ["assigned", "user", "Bruno"],
      ["created", "user", "Bruno"],
    ]);
  });

  it("records an automatic answer as auto_reply by automation", async () => {
    const { account } = await createTestAccount();
    await updateBusinessProfile({
      ctx: verbContext({ accountId: account.id }),
      input: businessProfileInput.parse({
        name: "Green Leaf",
        description: "",
        hours: { timezone: "Europe/Madrid", weekly: { mon: [{ open: "09:00", close: "09:01" }] } },
        auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: true } },
      }),
    });
    const { conversationId, messageId } = await customerWrites(account.id, "¿a qué hora abren?");
    const send: SendAutomatedMessage = async () => undefined;
    const result = await runAutoReplies(systemContext(), { accountId: account.id, conversationId, messageId, send });
    expect(result.replies.map((r) => r.kind)).toEqual(["hours_question"]);
    const trail = await getDb().select().from(conversationActivities).where(and(eq(conversationActivities.conversationId, conversationId), eq(conversationActivities.type, "auto_reply")));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ actorType: "automation", actorId: null, actorName: null, data: { kind: "hours_question" } });
  });

  it("recordActivity is what other verbs call (snooze, labels) in their own transaction", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { conversationId } = await customerWrites(account.id);
    await getDb().transaction((tx) =>
      recordActivity(tx, { accountId: account.id, conversationId, type: "snoozed", actor: { type: "user", id: admin.id, name: admin.name }, data: { until: "2026-12-01T09:00:00.000Z" } }),
    );
    const [latest] = (await listActivity(adminToken, conversationId)).body.data;
    expect(latest).toMatchObject({ type: "snoozed", actor: { type: "user", id: admin.id, name: admin.name }, data: { until: "2026-12-01T09:00:00.000Z" } });
  });

  it("is a 404 for another account's conversation and a 403 without conversations:read", async () => {
    const { adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const theirs = await customerWrites(other.account.id);
    expect((await listActivity(adminToken, theirs.conversationId)).status).toBe(404);
    const reportsOnly = await scopedToken(other.adminToken, ["reports:read"]);
    expect((await listActivity(reportsOnly, theirs.conversationId)).status).toBe(403);
    expect((await listActivity(adminToken, theirs.conversationId, "?limit=0")).status).toBe(400);
  });
});

describe("typing", () => {
  it("answers 204 and streams agent.typing, which no webhook receives", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { conversationId } = await customerWrites(account.id);
    // An active webhook subscribed to everything.
    const now = new Date();
    await getDb().insert(webhooks).values({ id: newId("webhook", now), accountId: account.id, url: "https://hooks.example.com/all", events: ["*"], secret: "whsec_test_secret_value_1234", status: "active", createdAt: now, updatedAt: now });

    const res = await typing(adminToken, conversationId);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await call(typingRoute.POST, { method: "POST", path: "/", token: adminToken, params: { id: conversationId } })).status).toBe(204);
    const typed = await eventsOf(account.id, "agent.typing");
    expect(typed).toHaveLength(2);
    expect(typed[0].data).toEqual({ conversation_id: conversationId, user: { id: admin.id, name: admin.name, email: admin.email, role: "admin" } });
    const deliveredTypes = (await getDb().select({ type: webhookDeliveries.eventType }).from(webhookDeliveries).where(eq(webhookDeliveries.accountId, account.id))).map((d) => d.type);
    expect(deliveredTypes).not.toContain("agent.typing");
    // A note, by contrast, is delivered.
    await addNote(adminToken, conversationId, { text: "for the record" });
    expect((await getDb().select({ type: webhookDeliveries.eventType }).from(webhookDeliveries).where(eq(webhookDeliveries.accountId, account.id))).map((d) => d.type)).toContain("note.created");

    const subscribe = await post(webhooksRoute, "/v1/webhooks", adminToken, { url: "https://hooks.example.com/typing", events: ["agent.typing"] });
    expect(subscribe.status).toBe(400);
  });

  it("is a 404 for another account's conversation, a 403 without conversations:write, a 400 for a bad body", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const theirs = await customerWrites(other.account.id);
    const { conversationId } = await customerWrites(account.id);
    expect((await typing(adminToken, theirs.conversationId)).status).toBe(404);
    expect((await typing(await scopedToken(adminToken, ["conversations:read"]), conversationId)).status).toBe(403);
    expect((await call(typingRoute.POST, { method: "POST", path: "/", token: adminToken, rawBody: "{", headers: { "content-type": "application/json" }, params: { id: conversationId } })).status).toBe(400);
    expect(await eventsOf(account.id, "agent.typing")).toHaveLength(0);
  });
});

describe("auto-assign on reply", () => {
  it("assigns an unassigned conversation to the first person who replies, with conversation.assigned", async () => {
    const { account, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    const { conversationId, phone } = await customerWrites(account.id);
    expect((await reply(bruno.token, phone, conversationId)).status).toBe(201);
    const after = await get(conversationRoute, "/", adminToken, { id: conversationId });
    expect(after.body).toMatchObject({ status: "assigned", assigned_to: bruno.user.id });
    const [assigned] = await eventsOf(account.id, "conversation.assigned");
    expect(assigned.data).toMatchObject({ conversation: { id: conversationId, assigned_to: bruno.user.id }, user: { id: bruno.user.id } });
    const [latest] = (await listActivity(adminToken, conversationId)).body.data;
    expect(latest).toMatchObject({ type: "assigned", actor: { id: bruno.user.id }, data: { assignee: { id: bruno.user.id, name: "Bruno" }, auto: true } });

    // A second person's reply does not take it over.
    expect((await reply(adminToken, phone, conversationId, "Also from me")).status).toBe(201);
    expect((await get(conversationRoute, "/", adminToken, { id: conversationId })).body.assigned_to).toBe(bruno.user.id);
    expect(await eventsOf(account.id, "conversation.assigned")).toHaveLength(1);
  });

  it("leaves it unassigned when the account turns auto_assign_on_reply off", async () => {
    const { account, adminToken } = await createTestAccount();
    const bruno = await addTestUser(account.id, "agent", "Bruno");
    expect((await get(inboxConfigRoute, "/v1/config/inbox", bruno.token)).body).toEqual({ auto_assign_on_reply: true, send_read_receipts: true, send_typing_indicator: true });
    const off = await call(inboxConfigRoute.PUT, { method: "PUT", path: "/v1/config/inbox", token: adminToken, body: { auto_assign_on_reply: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ auto_assign_on_reply: false, send_read_receipts: true, send_typing_indicator: true });
    expect((await get(inboxConfigRoute, "/v1/config/inbox", bruno.token)).body).toEqual({ auto_assign_on_reply: false, send_read_receipts: true, send_typing_indicator: true });

    const { conversationId, phone } = await customerWrites(account.id);
    expect((await reply(bruno.token, phone, conversationId)).status).toBe(201);
    expect((await get(conversationRoute, "/", adminToken, { id: conversationId })).body).toMatchObject({ status: "open", assigned_to: null });
    expect(await eventsOf(account.id, "conversation.assigned")).toHaveLength(0);
  });

  it("settings: agents read but may not change them; a bad value is a 400 that changes nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const put = (token: string, body: unknown) => call(inboxConfigRoute.PUT, { method: "PUT", path: "/v1/config/inbox", token, body });
    expect((await put(agent.token, { auto_assign_on_reply: false })).status).toBe(403);
    for (const body of [{}, { auto_assign_on_reply: "no" }, { auto_assign_on_reply: true, extra: 1 }]) {
      const res = await put(adminToken, body);
      expect(res.status).toBe(400);
    }
    expect((await put(adminToken, { auto_assign_on_reply: "no" })).body.error.details[0].path).toBe("auto_assign_on_reply");
    expect((await get(inboxConfigRoute, "/v1/config/inbox", adminToken)).body).toEqual({ auto_assign_on_reply: true, send_read_receipts: true, send_typing_indicator: true });
    expect((await get(inboxConfigRoute, "/v1/config/inbox", await scopedToken(adminToken, ["reports:read"]))).status).toBe(403);
  });
});

describe("canned replies", () => {
  const create = (token: string, body: unknown) => post(cannedRepliesRoute, "/v1/canned-replies", token, body);
  const patch = (token: string, id: string, body: unknown) => call(cannedReplyRoute.PATCH, { method: "PATCH", path: "/", token, body, params: { id } });
  const remove = (token: string, id: string) => call(cannedReplyRoute.DELETE, { method: "DELETE", path: "/", token, params: { id } });
  const list = (token: string, query = "") => get(cannedRepliesRoute, `/v1/canned-replies${query}`, token);

  it("creates, lists (agents too), changes and deletes", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const shipping = await create(adminToken, { shortcut: "shipping", text: "Hi {{contact.name}}, we ship in 2 days." });
    expect(shipping.status).toBe(201);
    expect(shipping.body).toEqual({
      id: expect.stringMatching(/^cr_[0-9a-z]{26}$/),
      shortcut: "shipping",
      text: "Hi {{contact.name}}, we ship in 2 days.",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await create(adminToken, { shortcut: "thanks_2-u", text: "Thank you!" });
    const listed = await list(agent.token, "?limit=1");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { shortcut: string }) => c.shortcut)).toEqual(["shipping"]);
    const next = await list(agent.token, `?cursor=${encodeURIComponent(listed.body.pagination.next_cursor)}`);
    expect(next.body.data.map((c: { shortcut: string }) => c.shortcut)).toEqual(["thanks_2-u"]);

    const changed = await patch(adminToken, shipping.body.id, { text: "We ship tomorrow, {{contact.name}}." });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ shortcut: "shipping", text: "We ship tomorrow, {{contact.name}}." });
    expect((await patch(adminToken, shipping.body.id, { shortcut: "envio" })).body.shortcut).toBe("envio");
    expect((await remove(adminToken, shipping.body.id)).status).toBe(204);
    expect((await remove(adminToken, shipping.body.id)).status).toBe(404);
    expect((await list(adminToken)).body.data.map((c: { shortcut: string }) => c.shortcut)).toEqual(["thanks_2-u"]);
  });

  it("a duplicate shortcut is a 409 on create and on change; other accounts may reuse it", async () => {
    const { adminToken } = await createTestAccount();
    const other = await createTestAccount();
    await create(adminToken, { shortcut: "hello", text: "Hello!" });
    const dup = await create(adminToken, { shortcut: "hello", text: "Hi again" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("conflict");
    const bye = await create(adminToken, { shortcut: "bye", text: "Bye!" });
    const renamed = await patch(adminToken, bye.body.id, { shortcut: "hello" });
    expect(renamed.status).toBe(409);
    expect((await list(adminToken)).body.data.map((c: { shortcut: string; text: string }) => [c.shortcut, c.text])).toEqual([
      ["hello", "Hello!"],
      ["bye", "Bye!"],
    ]);
    expect((await create(other.adminToken, { shortcut: "hello", text: "Theirs" })).status).toBe(201);
  });

  it("validates shortcut and text, and needs config:write to change (agents 403); another account's id is a 404", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const cases: [unknown, string][] = [
      [{ text: "x" }, "shortcut"],
      [{ shortcut: "", text: "x" }, "shortcut"],
      [{ shortcut: "Hello", text: "x" }, "shortcut"],
      [{ shortcut: "with space", text: "x" }, "shortcut"],
      [{ shortcut: "a".repeat(33), text: "x" }, "shortcut"],
      [{ shortcut: "ok" }, "text"],
      [{ shortcut: "ok", text: " " }, "text"],
      [{ shortcut: "ok", text: "x".repeat(4097) }, "text"],
    ];
    for (const [body, path] of cases) {
      const res = await create(adminToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details[0].path).toBe(path);
    }
    expect((await create(adminToken, { shortcut: "a".repeat(32), text: "x".repeat(4096) })).status).toBe(201);
    expect((await list(adminToken)).body.data).toHaveLength(1);
    expect((await create(agent.token, { shortcut: "mine", text: "x" })).status).toBe(403);
    const theirs = await create(other.adminToken, { shortcut: "secret", text: "theirs" });
    expect((await patch(adminToken, theirs.body.id, { text: "mine now" })).status).toBe(404);
    expect((await remove(adminToken, theirs.body.id)).status).toBe(404);
    expect((await patch(adminToken, theirs.body.id, {})).status).toBe(400);
    expect((await patch(agent.token, theirs.body.id, { text: "x" })).status).toBe(403);
    expect((await list(other.adminToken)).body.data[0].text).toBe("theirs");
  });

  it("fills contact, agent and business names when inserted", () => {
    const text = "Hola {{contact.name}}, soy {{ agent.name }} de {{business.name}}. {{order.id}}";
    expect(fillCannedReply(text, { "contact.name": "María", "agent.name": "Bruno", "business.name": "Green Leaf" })).toBe(
      "Hola María, soy Bruno de Green Leaf. {{order.id}}",
    );
  });
});
