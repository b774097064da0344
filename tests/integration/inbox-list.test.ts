import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as markRead from "@/app/api/inbox/conversations/[id]/read/route";
import * as inbox from "@/app/api/inbox/conversations/route";
import { getDb } from "@/db";
import { contacts, conversations } from "@/db/schema";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation } from "@/tests/support/messaging";

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

async function setup() {
  const { account, admin, adminToken } = await createTestAccount();
  const agent = await addTestUser(account.id, "agent");
  const old = await seedConversation({ accountId: account.id, at: minutesAgo(60), phone: "15550001111" });
  const mine = await seedConversation({ accountId: account.id, at: minutesAgo(50), status: "assigned", assignedTo: admin.id });
  const theirs = await seedConversation({ accountId: account.id, at: minutesAgo(40), status: "assigned", assignedTo: agent.user.id });
  const closed = await seedConversation({ accountId: account.id, at: minutesAgo(30), status: "closed" });
  // The oldest conversation has the latest message: it comes first.
  await getDb().update(conversations).set({ lastMessageAt: minutesAgo(1), lastMessagePreview: "Where is my order?" }).where(eq(conversations.id, old.conversation.id));
  await getDb().update(contacts).set({ name: "Maria Lopez" }).where(eq(contacts.id, old.contact.id));
  return { account, adminToken, ids: { old: old.conversation.id, mine: mine.conversation.id, theirs: theirs.conversation.id, closed: closed.conversation.id } };
}

const list = (token: string, query: string) => call(inbox.GET, { path: `/api/inbox/conversations?${query}`, token });

describe("inbox list", () => {
  it("orders by latest activity and filters all / mine / unassigned / closed", async () => {
    const { adminToken, ids } = await setup();
    const ofFilter = async (filter: string) => (await list(adminToken, `filter=${filter}`)).body.data.map((c: { id: string }) => c.id);
    expect(await ofFilter("all")).toEqual([ids.old, ids.theirs, ids.mine]);
    expect(await ofFilter("mine")).toEqual([ids.mine]);
    expect(await ofFilter("unassigned")).toEqual([ids.old]);
    expect(await ofFilter("closed")).toEqual([ids.closed]);
  });

  it("searches by name or by number digits", async () => {
    const { adminToken, ids } = await setup();
    expect((await list(adminToken, "q=maria")).body.data.map((c: { id: string }) => c.id)).toEqual([ids.old]);
    expect((await list(adminToken, "q=%2B1%20555-000-1111")).body.data.map((c: { id: string }) => c.id)).toEqual([ids.old]);
    expect((await list(adminToken, "q=nobody")).body.data).toEqual([]);
  });

  it("pages with a cursor without repeating rows, and keeps to the account", async () => {
    const { adminToken, ids } = await setup();
    const other = await createTestAccount();
    await seedConversation({ accountId: other.account.id });
    const first = await list(adminToken, "limit=2");
    expect(first.body.pagination.has_more).toBe(true);
    const second = await list(adminToken, `limit=2&cursor=${first.body.pagination.next_cursor}`);
    expect(second.body.pagination).toEqual({ has_more: false, next_cursor: null });
    expect([...first.body.data, ...second.body.data].map((c: { id: string }) => c.id)).toEqual([ids.old, ids.theirs, ids.mine]);
    expect((await list(adminToken, "filter=everything")).status).toBe(400);
    expect((await list(adminToken, "cursor=forged")).status).toBe(400);
  });

  it("marks a conversation read for the team when the inbox opens it", async () => {
    const { account, adminToken, ids } = await setup();
    await getDb().update(conversations).set({ unreadCount: 3 }).where(eq(conversations.id, ids.old));
    const res = await call(markRead.POST, { method: "POST", path: "/", token: adminToken, params: { id: ids.old } });
    expect(res.status).toBe(204);
    const [row] = await getDb().select().from(conversations).where(eq(conversations.id, ids.old));
    expect(row.unreadCount).toBe(0);
    const other = await createTestAccount();
    const foreign = await call(markRead.POST, { method: "POST", path: "/", token: other.adminToken, params: { id: ids.old } });
    expect(foreign.status).toBe(404);
    expect(account.id).toBeTruthy();
  });

  it("sorts by priority, urgent first and then by latest activity, in pages that never repeat a row", async () => {
    const { account, adminToken } = await createTestAccount();
    const made: Record<string, string> = {};
    const plan: [string, "urgent" | "high" | "medium" | "low" | null, number][] = [
      ["none-new", null, 1],
      ["low", "low", 2],
      ["urgent-old", "urgent", 50],
      ["high", "high", 3],
      ["urgent-new", "urgent", 4],
      ["medium", "medium", 5],
    ];
    for (const [name, priority, ago] of plan) {
      const { conversation } = await seedConversation({ accountId: account.id, at: minutesAgo(ago) });
      await getDb().update(conversations).set({ priority, lastMessageAt: minutesAgo(ago) }).where(eq(conversations.id, conversation.id));
      made[name] = conversation.id;
    }
    const expected = ["urgent-new", "urgent-old", "high", "medium", "low", "none-new"].map((n) => made[n]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(adminToken, `sort=priority&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    // The default stays latest activity first.
    expect((await list(adminToken, "limit=1")).body.data[0].id).toBe(made["none-new"]);
    const bad = await list(adminToken, "sort=loudest");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("sort");
    // A cursor of the activity order is refused in the priority order, not misread.
    const activityCursor = (await list(adminToken, "limit=1")).body.pagination.next_cursor;
    expect((await list(adminToken, `sort=priority&cursor=${encodeURIComponent(activityCursor)}`)).status).toBe(400);
  });
});
