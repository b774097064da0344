import { beforeEach, describe, expect, it } from "vitest";
import * as inboundRoute from "@/app/api/sandbox/inbound/route";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import * as activityRoute from "@/app/v1/conversations/[id]/activity/route";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as messagesRoute from "@/app/v1/conversations/[id]/messages/route";
import * as notesRoute from "@/app/v1/conversations/[id]/notes/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { countRows, nextPhone } from "@/tests/support/messaging";

beforeEach(() => resetRateLimiters());

const simulate = async (token: string, body: Record<string, unknown>) => {
  const res = await call(inboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
};
const open = (token: string, id: string, query = "") => call(conversationRoute.GET, { path: `/v1/conversations/${id}${query}`, token, params: { id } });

/** A conversation with `n` customer messages, a note and an assignment. */
async function seedThread(n: number) {
  const { account, admin, adminToken } = await createTestAccount();
  const from = nextPhone();
  const ids: string[] = [];
  let conversationId = "";
  for (let i = 0; i < n; i++) {
    const message = await simulate(adminToken, { from, name: "Lucía", type: "text", text: `Message ${i + 1}` });
    ids.push(message.id);
    conversationId = message.conversation_id;
  }
  const note = await call(notesRoute.POST, { method: "POST", path: `/v1/conversations/${conversationId}/notes`, token: adminToken, params: { id: conversationId }, body: { text: "VIP customer" } });
  expect(note.status, note.text).toBe(201);
  const assigned = await call(assignRoute.POST, { method: "POST", path: `/v1/conversations/${conversationId}/assign`, token: adminToken, params: { id: conversationId }, body: {} });
  expect(assigned.status).toBe(200);
  return { account, admin, adminToken, conversationId, ids, noteId: note.body.id as string };
}

describe("GET /v1/conversations/{id}?include=…: a conversation opens in one request", () => {
  it("brings the conversation, the newest page of messages, its notes and its activity, exactly as the lists' own endpoints", async () => {
    const { adminToken, conversationId, ids, noteId } = await seedThread(7);
    const res = await open(adminToken, conversationId, "?include=messages,notes,activity&limit=5");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: conversationId, status: "assigned", contact: { name: "Lucía" } });
    // Only the newest page, newest first.
    expect(res.body.messages.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(-5).reverse());
    expect(res.body.messages.pagination.has_more).toBe(true);
    expect(res.body.notes.data.map((n: { id: string }) => n.id)).toEqual([noteId]);
    expect(res.body.activity.data.map((a: { type: string }) => a.type)).toContain("assigned");

    const ownMessages = await call(messagesRoute.GET, { path: `/v1/conversations/${conversationId}/messages?limit=5`, token: adminToken, params: { id: conversationId } });
    expect(res.body.messages.data).toEqual(ownMessages.body.data);
    const ownActivity = await call(activityRoute.GET, { path: `/v1/conversations/${conversationId}/activity?limit=100`, token: adminToken, params: { id: conversationId } });
    expect(res.body.activity.data).toEqual(ownActivity.body.data);

    // The cursor pages on at the messages endpoint, to the very first message.
    const cursor = encodeURIComponent(res.body.messages.pagination.next_cursor);
    const older = await call(messagesRoute.GET, { path: `/v1/conversations/${conversationId}/messages?limit=5&cursor=${cursor}`, token: adminToken, params: { id: conversationId } });
    expect(older.status, older.text).toBe(200);
    expect(older.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2).reverse());
    expect(older.body.pagination.has_more).toBe(false);
  });

  it("without include answers the conversation alone, as before", async () => {
    const { adminToken, conversationId } = await seedThread(1);
    const res = await open(adminToken, conversationId);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("messages");
    expect(res.body).not.toHaveProperty("notes");
    expect(res.body).not.toHaveProperty("activity");
    const some = await open(adminToken, conversationId, "?include=notes");
    expect(Object.keys(some.body)).toContain("notes");
    expect(some.body).not.toHaveProperty("messages");
  });

  it("refuses an unknown include or a bad limit with the error body, and changes nothing", async () => {
    const { account, adminToken, conversationId } = await seedThread(1);
    const before = await countRows(account.id);
    for (const query of ["?include=messages,secrets", "?include=messages&limit=0", "?include=messages&limit=101", "?include=messages&limit=abc"]) {
      const res = await open(adminToken, conversationId, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
    }
    expect(await countRows(account.id)).toEqual(before);
  });

  it("include=messages needs messages:read too; another account's conversation is a 404", async () => {
    const { adminToken, conversationId } = await seedThread(1);
    const minted = await call(tokensRoute.POST, {
      method: "POST",
      path: "/v1/auth/tokens",
      token: adminToken,
      body: { name: "conversations only", permissions: ["conversations:read"], expires_at: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(minted.status, minted.text).toBe(201);
    const denied = await open(minted.body.token, conversationId, "?include=messages");
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "insufficient_scope", details: [{ scope: "messages:read" }] });
    expect((await open(minted.body.token, conversationId, "?include=notes,activity")).status).toBe(200);

    const other = await createTestAccount();
    const theirs = await open(other.adminToken, conversationId, "?include=messages,notes,activity");
    expect(theirs.status).toBe(404);
  });
});
