import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as userById from "@/app/v1/users/[id]/route";
import * as usersRoute from "@/app/v1/users/route";
import * as verify from "@/app/v1/auth/verify/route";
import { getDb } from "@/db";
import { contacts, conversations, events, users } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";

const newUser = (patch: Record<string, unknown> = {}) => ({ name: "Bea Agent", email: `bea-${Math.random().toString(36).slice(2)}@example.com`, role: "agent", password: TEST_PASSWORD, ...patch });
const eventsOf = (accountId: string, type: string) => getDb().select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, type)));
const liveUsersOf = async (accountId: string) => (await getDb().select().from(users).where(eq(users.accountId, accountId))).filter((u) => !u.deletedAt);

describe("users API", () => {
  it("creates a user without exposing the password and records user.created", async () => {
    const { account, adminToken } = await createTestAccount();
    const res = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: adminToken, body: newUser({ email: "Bea@Example.com" }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^usr_/), email: "bea@example.com", role: "agent" });
    expect(res.text).not.toMatch(/password|hash/i);
    const recorded = await eventsOf(account.id, "user.created");
    expect(recorded).toHaveLength(1);
    expect(recorded[0].data).toEqual({ user: res.body });
  });

  it.each([
    ["a weak password", { password: "short" }, "password"],
    ["a bad email", { email: "bea-at-example" }, "email"],
    ["a role other than admin/agent", { role: "owner" }, "role"],
    ["a missing name", { name: "" }, "name"],
  ])("refuses %s with a 400 naming the field, creating nothing", async (_n, patch, field) => {
    const { account, adminToken } = await createTestAccount();
    const res = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: adminToken, body: newUser(patch) });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect(await liveUsersOf(account.id)).toHaveLength(1);
  });

  it("refuses a duplicate email (any case, any account) with a 400 naming email", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const res = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: adminToken, body: newUser({ email: admin.email.toUpperCase() }) });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("email");
    expect(await liveUsersOf(account.id)).toHaveLength(1);
  });

  it("lists users in pages and hides other accounts' users (404)", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await createTestAccount();
    for (let i = 0; i < 3; i++) await addTestUser(account.id, "agent", `Agent ${i}`);
    const first = await call(usersRoute.GET, { path: "/v1/users?limit=2", token: adminToken });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.pagination.has_more).toBe(true);
    const second = await call(usersRoute.GET, { path: `/v1/users?limit=2&cursor=${first.body.pagination.next_cursor}`, token: adminToken });
    expect(second.body.data).toHaveLength(2);
    expect(second.body.pagination).toEqual({ next_cursor: null, has_more: false });
    const ids = [...first.body.data, ...second.body.data].map((u: { id: string }) => u.id);
    expect(new Set(ids).size).toBe(4);
    const foreign = await call(userById.GET, { path: `/v1/users/${other.admin.id}`, token: adminToken, params: { id: other.admin.id } });
    expect(foreign.status).toBe(404);
    const patchForeign = await call(userById.PATCH, { method: "PATCH", path: "/", token: adminToken, params: { id: other.admin.id }, body: { name: "X" } });
    expect(patchForeign.status).toBe(404);
  });

  it("never demotes or deletes the last admin (409)", async () => {
    const { admin, adminToken } = await createTestAccount();
    const demote = await call(userById.PATCH, { method: "PATCH", path: "/", token: adminToken, params: { id: admin.id }, body: { role: "agent" } });
    expect(demote.status).toBe(409);
    const remove = await call(userById.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id: admin.id } });
    expect(remove.status).toBe(409);
  });

  it("updates a user and records user.updated", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const res = await call(userById.PATCH, { method: "PATCH", path: "/", token: adminToken, params: { id: agent.user.id }, body: { name: "Renamed", role: "admin" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed", role: "admin" });
    expect(await eventsOf(account.id, "user.updated")).toHaveLength(1);
    const empty = await call(userById.PATCH, { method: "PATCH", path: "/", token: adminToken, params: { id: agent.user.id }, body: {} });
    expect(empty.status).toBe(400);
  });

  it("deletes a user: tokens stop, conversations return to the queue, user.deleted recorded", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const now = new Date();
    const contactId = newId("contact");
    await getDb().insert(contacts).values({ id: contactId, accountId: account.id, phone: "15551234567" });
    const conversationId = newId("conversation");
    await getDb().insert(conversations).values({ id: conversationId, accountId: account.id, contactId, status: "assigned", assignedTo: agent.user.id, assignedAt: now });
    const res = await call(userById.DELETE, { method: "DELETE", path: "/", token: adminToken, params: { id: agent.user.id } });
    expect(res.status).toBe(204);
    expect((await call(verify.GET, { path: "/v1/auth/verify", token: agent.token })).status).toBe(401);
    const [conversation] = await getDb().select().from(conversations).where(eq(conversations.id, conversationId));
    expect(conversation).toMatchObject({ status: "open", assignedTo: null });
    expect(await eventsOf(account.id, "user.deleted")).toHaveLength(1);
    expect(await eventsOf(account.id, "conversation.unassigned")).toHaveLength(1);
    const gone = await call(userById.GET, { path: "/", token: adminToken, params: { id: agent.user.id } });
    expect(gone.status).toBe(404);
  });

  it("lets agents read users but not change them", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    expect((await call(usersRoute.GET, { path: "/v1/users", token: agent.token })).status).toBe(200);
    const res = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: agent.token, body: newUser() });
    expect(res.status).toBe(403);
    expect(await liveUsersOf(account.id)).toHaveLength(2);
  });
});
