import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as counts from "@/app/api/inbox/counts/route";
import { getDb } from "@/db";
import { conversations } from "@/db/schema";
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
    expect(asAdmin.body).toEqual({ all: 3, mine: 1, unassigned: 1, unread: 1 });
    const asAgent = await call(counts.GET, { path: "/api/inbox/counts", token: agent.token });
    expect(asAgent.body).toEqual({ all: 3, mine: 1, unassigned: 1, unread: 1 });
    expect((await call(counts.GET, { path: "/api/inbox/counts" })).status).toBe(401);
  });
});
