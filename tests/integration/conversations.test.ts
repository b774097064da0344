import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as messagesRoute from "@/app/v1/conversations/[id]/messages/route";
import * as reopenRoute from "@/app/v1/conversations/[id]/reopen/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as unassignRoute from "@/app/v1/conversations/[id]/unassign/route";
import * as listRoute from "@/app/v1/conversations/route";
import * as userRoute from "@/app/v1/users/[id]/route";
import { getDb } from "@/db";
import { conversations } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { countRows, eventsOf, seedConversation } from "@/tests/support/messaging";

beforeEach(() => resetRateLimiters());

const list = (token: string, query = "") => call(listRoute.GET, { path: `/v1/conversations${query}`, token });
const action = (route: { POST: any }, name: string, token: string, id: string, body?: unknown) =>
  call(route.POST, { method: "POST", path: `/v1/conversations/${id}/${name}`, token, params: { id }, body });

/** Conversations created a millisecond apart, oldest first. */
async function seedMany(accountId: string, n: number, options: Parameters<typeof seedConversation>[0] extends infer O ? Partial<O> : never = {}) {
  const start = Date.now() - 60_000;
  const rows = [];
  for (let i = 0; i < n; i++) rows.push((await seedConversation({ accountId, at: new Date(start + i), ...options })).conversation);
  return rows;
}

async function walk(token: string, query: string) {
  const ids: string[] = [];
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(token, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status).toBe(200);
    pages.push(res.body);
    ids.push(...res.body.data.map((c: { id: string }) => c.id));
    cursor = res.body.pagination.next_cursor;
  } while (cursor);
  return { ids, pages };
}

describe("GET /v1/conversations", () => {
  it("pages newest first with has_more and next_cursor right on the last page", async () => {
    const { account, adminToken } = await createTestAccount();
    const seeded = await seedMany(account.id, 7);
    const { ids, pages } = await walk(adminToken, "?limit=3");
    expect(ids).toEqual(seeded.map((c) => c.id).reverse());
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.pagination.has_more)).toEqual([true, true, false]);
    expect(pages[2].pagination.next_cursor).toBeNull();
  });

  it("hands out no cursor when the last page is exactly full", async () => {
    const { account, adminToken } = await createTestAccount();
    await seedMany(account.id, 6);
    const { pages } = await walk(adminToken, "?limit=3");
    expect(pages).toHaveLength(2);
    expect(pages[1].pagination).toEqual({ next_cursor: null, has_more: false });
  });

  it("shows the conversation shape with its contact", async () => {
    const { account, adminToken } = await createTestAccount();
    const { conversation, contact } = await seedConversation({ accountId: account.id });
    const res = await list(adminToken);
    expect(res.body.data[0]).toEqual({
      id: conversation.id,
      status: "open",
      assigned_to: null,
      assigned_at: null,
      contact: { id: contact.id, phone: contact.phone, network_user_id: null, username: null, name: null },
      last_message_at: null,
      last_message_preview: null,
      unread_count: 0,
      created_at: conversation.createdAt.toISOString(),
      updated_at: conversation.updatedAt.toISOString(),
      closed_at: null,
      snoozed_until: null,
      labels: [],
      service_window_expires_at: null,
      csat: null,
      team_id: null,
      priority: null,
      sla: null,
    });
  });

  it("neither repeats nor skips a row while conversations are added during paging", async () => {
    const { account, adminToken } = await createTestAccount();
    const seeded = await seedMany(account.id, 9);
    const first = await list(adminToken, "?limit=4");
    // New conversations arrive between page requests.
    await seedConversation({ accountId: account.id });
    await seedConversation({ accountId: account.id });
    const second = await list(adminToken, `?limit=4&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    await seedConversation({ accountId: account.id });
    const third = await list(adminToken, `?limit=4&cursor=${encodeURIComponent(second.body.pagination.next_cursor)}`);
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((c: { id: string }) => c.id);
    expect(ids).toEqual(seeded.map((c) => c.id).reverse());
    expect(third.body.pagination).toEqual({ next_cursor: null, has_more: false });
  });

  it("filters by status and by assignee (a user id or none), also across pages", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { user: agent } = await addTestUser(account.id, "agent");
    const open = await seedMany(account.id, 3);
    const mine = await seedMany(account.id, 3, { status: "assigned", assignedTo: admin.id });
    const theirs = await seedMany(account.id, 2, { status: "assigned", assignedTo: agent.id });
    const closed = await seedMany(account.id, 2, { status: "closed" });
    const closedTheirs = await seedMany(account.id, 1, { status: "closed", assignedTo: agent.id });
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).reverse();

    expect((await walk(adminToken, "?limit=2&status=open")).ids).toEqual(ids(open));
    expect((await walk(adminToken, "?limit=2&status=assigned")).ids).toEqual(ids([...mine, ...theirs]));
    expect((await walk(adminToken, "?limit=2&status=closed")).ids).toEqual(ids([...closed, ...closedTheirs]));
    expect((await walk(adminToken, `?limit=2&assigned_to=${admin.id}`)).ids).toEqual(ids(mine));
    expect((await walk(adminToken, `?limit=2&assigned_to=${agent.id}`)).ids).toEqual(ids([...theirs, ...closedTheirs]));
    expect((await walk(adminToken, `?limit=2&assigned_to=${agent.id}&status=assigned`)).ids).toEqual(ids(theirs));
    expect((await walk(adminToken, "?limit=2&assigned_to=none")).ids).toEqual(ids([...open, ...closed]));
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=2.5", "limit"],
    ["status=pending", "status"],
    ["assigned_to=someone", "assigned_to"],
    ["cursor=not-a-cursor", "cursor"],
  ])("answers %s with a 400 naming %s", async (query, field) => {
    const { adminToken } = await createTestAccount();
    const res = await list(adminToken, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("refuses a cursor whose position was altered", async () => {
    const { account, adminToken } = await createTestAccount();
    await seedMany(account.id, 3);
    const first = await list(adminToken, "?limit=1");
    const [payload, signature] = first.body.pagination.next_cursor.split(".");
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString());
    decoded[1] = "conv_00000000000000000000000000";
    const forged = `${Buffer.from(JSON.stringify(decoded)).toString("base64url")}.${signature}`;
    const res = await list(adminToken, `?cursor=${encodeURIComponent(forged)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("cursor");
  });

  it("shows only the caller's account", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    await seedMany(a.account.id, 2);
    const mine = await seedMany(b.account.id, 1);
    const res = await list(b.adminToken);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([mine[0].id]);
  });
});

describe("conversation status machine", () => {
  it("assigns to the caller by default, unassigns, closes and reopens, each with its event", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id });
    const id = conversation.id;

    const assigned = await action(assignRoute, "assign", adminToken, id);
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ id, status: "assigned", assigned_to: admin.id });
    expect(assigned.body.assigned_at).toEqual(expect.any(String));

    const unassigned = await action(unassignRoute, "unassign", adminToken, id);
    expect(unassigned.body).toMatchObject({ status: "open", assigned_to: null, assigned_at: null });

    const closed = await action(closeRoute, "close", adminToken, id);
    expect(closed.body).toMatchObject({ status: "closed", closed_at: expect.any(String) });

    const reopened = await action(reopenRoute, "reopen", adminToken, id);
    expect(reopened.body).toMatchObject({ status: "open", closed_at: null });

    const types = (await eventsOf(account.id)).map((e) => e.type);
    expect(types).toEqual(["conversation.assigned", "conversation.unassigned", "conversation.closed", "conversation.reopened"]);
    const [assignedEvent, unassignedEvent] = await eventsOf(account.id);
    expect(assignedEvent.data).toEqual({
      conversation: { id, status: "assigned", assigned_to: admin.id, assigned_at: assigned.body.assigned_at },
      // The assignee as a reference, without its timestamps.
      user: { id: admin.id, name: admin.name, email: admin.email, role: "admin" },
    });
    expect(unassignedEvent.data).toMatchObject({ conversation: { id, status: "open", contact: expect.any(Object) }, user: { id: admin.id } });
  });

  it("assigns to another user of the account, and a reopen returns the conversation to its assignee", async () => {
    const { account, adminToken } = await createTestAccount();
    const { user: agent, token: agentToken } = await addTestUser(account.id, "agent");
    const { conversation } = await seedConversation({ accountId: account.id });
    const res = await action(assignRoute, "assign", adminToken, conversation.id, { user_id: agent.id });
    expect(res.body).toMatchObject({ status: "assigned", assigned_to: agent.id });
    expect((await action(closeRoute, "close", agentToken, conversation.id)).body).toMatchObject({ status: "closed", assigned_to: agent.id });
    expect((await action(reopenRoute, "reopen", agentToken, conversation.id)).body).toMatchObject({ status: "assigned", assigned_to: agent.id });
  });

  it("reopens as open when the assignee was deleted meanwhile", async () => {
    const { account, adminToken } = await createTestAccount();
    const { user: agent } = await addTestUser(account.id, "agent");
    const { conversation } = await seedConversation({ accountId: account.id, status: "closed", assignedTo: agent.id });
    const deleted = await call(userRoute.DELETE, { method: "DELETE", path: `/v1/users/${agent.id}`, token: adminToken, params: { id: agent.id } });
    expect(deleted.status).toBe(204);
    const res = await action(reopenRoute, "reopen", adminToken, conversation.id);
    expect(res.body).toMatchObject({ status: "open", assigned_to: null });
  });

  it.each([
    ["unassign", "open"],
    ["unassign", "closed"],
    ["close", "closed"],
    ["assign", "closed"],
    ["reopen", "open"],
    ["reopen", "assigned"],
  ] as const)("refuses %s from %s with 409 invalid_transition and changes nothing", async (name, status) => {
    const { account, admin, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id, status, assignedTo: status === "assigned" ? admin.id : null });
    const route = { assign: assignRoute, unassign: unassignRoute, close: closeRoute, reopen: reopenRoute }[name];
    const res = await action(route, name, adminToken, conversation.id);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("invalid_transition");
    const [after] = await getDb().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(after.status).toBe(status);
    expect(await eventsOf(account.id)).toHaveLength(0);
  });

  it("reassigns an assigned conversation, and assigning to the current assignee changes nothing", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const { user: agent } = await addTestUser(account.id, "agent");
    const { conversation } = await seedConversation({ accountId: account.id, status: "assigned", assignedTo: admin.id });
    const same = await action(assignRoute, "assign", adminToken, conversation.id, { user_id: admin.id });
    expect(same.status).toBe(200);
    expect(await eventsOf(account.id, "conversation.assigned")).toHaveLength(0);
    const moved = await action(assignRoute, "assign", adminToken, conversation.id, { user_id: agent.id });
    expect(moved.body.assigned_to).toBe(agent.id);
    expect(await eventsOf(account.id, "conversation.assigned")).toHaveLength(1);
  });

  it("answers 404 for an assignee of another account or a deleted user, and changes nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const { user: gone } = await addTestUser(account.id, "agent");
    await call(userRoute.DELETE, { method: "DELETE", path: `/v1/users/${gone.id}`, token: adminToken, params: { id: gone.id } });
    const { conversation } = await seedConversation({ accountId: account.id });
    for (const userId of [other.admin.id, gone.id, "usr_00000000000000000000000000"]) {
      const res = await action(assignRoute, "assign", adminToken, conversation.id, { user_id: userId });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const [after] = await getDb().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(after).toMatchObject({ status: "open", assignedTo: null });
  });

  it("refuses a malformed user_id with a 400 naming it", async () => {
    const { account, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id });
    const res = await action(assignRoute, "assign", adminToken, conversation.id, { user_id: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("user_id");
  });

  it("resets the unread count when someone takes or closes the conversation", async () => {
    const { account, adminToken } = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: account.id });
    await getDb().update(conversations).set({ unreadCount: 4 }).where(eq(conversations.id, conversation.id));
    expect((await action(assignRoute, "assign", adminToken, conversation.id)).body.unread_count).toBe(0);
    await getDb().update(conversations).set({ unreadCount: 2 }).where(eq(conversations.id, conversation.id));
    expect((await action(closeRoute, "close", adminToken, conversation.id)).body.unread_count).toBe(0);
  });
});

describe("another account's conversation", () => {
  it("is a 404 on every route, and nothing changes", async () => {
    const { adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const { conversation } = await seedConversation({ accountId: other.account.id });
    const id = conversation.id;
    const responses = [
      await call(conversationRoute.GET, { path: `/v1/conversations/${id}`, token: adminToken, params: { id } }),
      await call(conversationRoute.DELETE, { method: "DELETE", path: `/v1/conversations/${id}`, token: adminToken, params: { id } }),
      await call(messagesRoute.GET, { path: `/v1/conversations/${id}/messages`, token: adminToken, params: { id } }),
      await action(assignRoute, "assign", adminToken, id),
      await action(unassignRoute, "unassign", adminToken, id),
      await action(closeRoute, "close", adminToken, id),
      await action(reopenRoute, "reopen", adminToken, id),
    ];
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(responses.every((r) => r.body.error.code === "not_found")).toBe(true);
    const [after] = await getDb().select().from(conversations).where(eq(conversations.id, id));
    expect(after.status).toBe("open");
  });
});

describe("DELETE /v1/conversations/{id}", () => {
  it("needs conversations:delete (agents get 403) and removes the conversation", async () => {
    const { account, adminToken } = await createTestAccount();
    const { token: agentToken } = await addTestUser(account.id, "agent");
    const { conversation } = await seedConversation({ accountId: account.id });
    const id = conversation.id;
    const forbidden = await call(conversationRoute.DELETE, { method: "DELETE", path: `/v1/conversations/${id}`, token: agentToken, params: { id } });
    expect(forbidden.status).toBe(403);
    const res = await call(conversationRoute.DELETE, { method: "DELETE", path: `/v1/conversations/${id}`, token: adminToken, params: { id } });
    expect(res.status).toBe(204);
    expect((await countRows(account.id)).conversations).toBe(0);
    const again = await call(conversationRoute.GET, { path: `/v1/conversations/${id}`, token: adminToken, params: { id } });
    expect(again.status).toBe(404);
  });
});
