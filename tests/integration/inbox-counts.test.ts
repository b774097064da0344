import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as counts from "@/app/api/inbox/counts/route";
import { getDb } from "@/db";
import { conversations, notifications } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation } from "@/tests/support/messaging";

describe("inbox counts", () => {
  it("counts open conversations per filter tab and those with unread messages, for this account only", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const unassigned = await seedConversation({ accountId: account.id });
    await seedConversation({ accountId: account.id, status: "assigned", assignedTo: admin.id });
    await seedConversation({ accountId: account.id, status: "assigned", assignedTo: agent.user.id });
    const closed = await seedConversation({ accountId: account.id, status: "closed" });
    await getDb().update(conversations).set({ unreadCount: 2 }).where(eq(conversations.id, unassigned.conversation.id));
    await getDb().update(conversations).set({ unreadCount: 1 }).where(eq(conversations.id, closed.conversation.id));
    const other = await createTestAccount();
    await seedConversation({ accountId: other.account.id });

    const asAdmin = await call(counts.GET, { path: "/api/inbox/counts", token: adminToken });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual({ all: 3, mine: 1, unassigned: 1, snoozed: 0, closed: 1, mentions: 0, unread: 1 });
    const asAgent = await call(counts.GET, { path: "/api/inbox/counts", token: agent.token });
    expect(asAgent.body).toEqual({ all: 3, mine: 1, unassigned: 1, snoozed: 0, closed: 1, mentions: 0, unread: 1 });
    expect((await call(counts.GET, { path: "/api/inbox/counts" })).status).toBe(401);
  });

  it("every tab counts what it lists: snoozed ones only under Snoozed, and Mentions the conversations with an unread mention of me", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    await seedConversation({ accountId: account.id });
    const sleeping = await seedConversation({ accountId: account.id, status: "assigned", assignedTo: admin.id });
    await getDb().update(conversations).set({ status: "snoozed", snoozedUntil: new Date(Date.now() + 3_600_000) }).where(eq(conversations.id, sleeping.conversation.id));
    const mentioned = await seedConversation({ accountId: account.id });
    for (const readAt of [null, null, new Date()]) {
      await getDb().insert(notifications).values({ id: newId("notification"), accountId: account.id, userId: admin.id, type: "mention", conversationId: mentioned.conversation.id, actorId: agent.user.id, readAt });
    }
    const readOnly = await seedConversation({ accountId: account.id, status: "closed" });
    await getDb().insert(notifications).values({ id: newId("notification"), accountId: account.id, userId: admin.id, type: "mention", conversationId: readOnly.conversation.id, actorId: agent.user.id, readAt: new Date() });

    const asAdmin = await call(counts.GET, { path: "/api/inbox/counts", token: adminToken });
    expect(asAdmin.body).toEqual({ all: 2, mine: 0, unassigned: 2, snoozed: 1, closed: 1, mentions: 1, unread: 0 });
    const asAgent = await call(counts.GET, { path: "/api/inbox/counts", token: agent.token });
    expect(asAgent.body).toMatchObject({ all: 2, mine: 0, snoozed: 1, mentions: 0 });
  });
});
