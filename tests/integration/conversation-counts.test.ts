import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as reopenRoute from "@/app/v1/conversations/[id]/reopen/route";
import * as unassignRoute from "@/app/v1/conversations/[id]/unassign/route";
import * as inboxCountsRoute from "@/app/api/inbox/counts/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import { getDb, rowsOf } from "@/db";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation } from "@/tests/support/seed";

// The inbox's filter tabs and the summary's "right now" figures (open, unassigned, assigned to
// each person) are counts kept with every change of a conversation's status, assignee or unread
// state, not a pass over the conversations at each read. Whatever changes them (the API's verbs,
// a bulk update, a person deleted, a conversation or a whole account deleted), they must stay
// those of the conversations themselves.

let accountId: string;
let token: string;
let adminId: string;
let ana: string;
let bruno: string;

type Summary = { conversations: { open_now: number; unassigned_now: number }; agents: { user_id: string; assigned_now: number }[] };

async function summary(): Promise<Summary> {
  const res = await call(summaryRoute.GET, { path: "/v1/reports/summary?from=2026-07-01T00:00:00.000Z&to=2026-07-02T00:00:00.000Z&tz=UTC", token });
  expect(res.status).toBe(200);
  return res.body as Summary;
}

/** The figures as a pass over the conversations gives them (what the summary read before). */
async function counted(account = accountId) {
  const rows = rowsOf<{ status: string; assigned_to: string | null; n: number }>(
    await getDb().execute(sql`
      select status, assigned_to, count(*)::int as n from conversations
      where account_id = ${account} and status in ('open', 'assigned') group by 1, 2`),
  );
  const assigned: Record<string, number> = {};
  for (const row of rows) if (row.status === "assigned" && row.assigned_to) assigned[row.assigned_to] = (assigned[row.assigned_to] ?? 0) + row.n;
  return {
    open_now: rows.reduce((sum, row) => sum + row.n, 0),
    unassigned_now: rows.filter((row) => row.status === "open").reduce((sum, row) => sum + row.n, 0),
    assigned,
  };
}

async function expectSummaryMatchesConversations() {
  const report = await summary();
  const truth = await counted();
  expect(report.conversations).toMatchObject({ open_now: truth.open_now, unassigned_now: truth.unassigned_now });
  const reported = Object.fromEntries(report.agents.filter((a) => a.assigned_now > 0).map((a) => [a.user_id, a.assigned_now]));
  expect(reported).toEqual(truth.assigned);

  // The inbox's tabs, as a pass over the conversations counts them.
  const tabs = await call(inboxCountsRoute.GET, { path: "/api/inbox/counts", token });
  expect(tabs.status).toBe(200);
  const [scan] = rowsOf<Record<string, number>>(
    await getDb().execute(sql`
      select count(*) filter (where status not in ('closed', 'snoozed'))::int as all,
        count(*) filter (where status not in ('closed', 'snoozed') and assigned_to = ${adminId})::int as mine,
        count(*) filter (where status not in ('closed', 'snoozed') and assigned_to is null)::int as unassigned,
        count(*) filter (where status = 'snoozed')::int as snoozed,
        count(*) filter (where status = 'closed')::int as closed,
        count(*) filter (where status <> 'closed' and unread_count > 0)::int as unread
      from conversations where account_id = ${accountId}`),
  );
  expect(tabs.body).toMatchObject(scan);
  return report;
}

beforeAll(async () => {
  const created = await createTestAccount();
  accountId = created.account.id;
  token = created.adminToken;
  adminId = created.admin.id;
  ana = (await addTestUser(accountId, "agent", "Ana Agent")).user.id;
  bruno = (await addTestUser(accountId, "agent", "Bruno Agent")).user.id;
});

describe("the inbox's tabs and the summary's figures of right now", () => {
  it("are kept by the counts as conversations arrive, are assigned, closed and reopened through the API", async () => {
    const first = await seedConversation({ accountId });
    const second = await seedConversation({ accountId });
    await seedConversation({ accountId, status: "assigned", assignedTo: ana });
    await seedConversation({ accountId, status: "closed", closedAt: new Date() });
    let report = await expectSummaryMatchesConversations();
    expect(report.conversations).toMatchObject({ open_now: 3, unassigned_now: 2 });

    const id = first.conversation.id;
    expect((await call(assignRoute.POST, { method: "POST", path: `/v1/conversations/${id}/assign`, params: { id }, token, body: { user_id: bruno } })).status).toBe(200);
    report = await expectSummaryMatchesConversations();
    expect(report.conversations).toMatchObject({ open_now: 3, unassigned_now: 1 });
    expect(report.agents.find((a) => a.user_id === bruno)?.assigned_now).toBe(1);

    // Assigned to the same person again: nothing changes.
    await call(assignRoute.POST, { method: "POST", path: `/v1/conversations/${id}/assign`, params: { id }, token, body: { user_id: bruno } });
    await expectSummaryMatchesConversations();

    expect((await call(closeRoute.POST, { method: "POST", path: `/v1/conversations/${id}/close`, params: { id }, token })).status).toBe(200);
    report = await expectSummaryMatchesConversations();
    expect(report.conversations).toMatchObject({ open_now: 2, unassigned_now: 1 });

    expect((await call(reopenRoute.POST, { method: "POST", path: `/v1/conversations/${id}/reopen`, params: { id }, token })).status).toBe(200);
    await expectSummaryMatchesConversations();

    const other = second.conversation.id;
    await call(assignRoute.POST, { method: "POST", path: `/v1/conversations/${other}/assign`, params: { id: other }, token, body: { user_id: ana } });
    await call(unassignRoute.POST, { method: "POST", path: `/v1/conversations/${other}/unassign`, params: { id: other }, token });
    await expectSummaryMatchesConversations();
  });

  it("follow bulk updates, snoozes, a person deleted and conversations deleted", async () => {
    const db = getDb();
    for (let i = 0; i < 5; i++) await seedConversation({ accountId, status: i % 2 ? "assigned" : "open", assignedTo: i % 2 ? bruno : null });
    // One statement moving many rows at once, in both directions.
    await db.execute(sql`update conversations set status = case when status = 'open' then 'snoozed' else 'open' end, assigned_to = null
      where account_id = ${accountId} and status in ('open', 'assigned') and assigned_to is distinct from ${ana}`);
    await expectSummaryMatchesConversations();
    await db.execute(sql`update conversations set status = 'assigned', assigned_to = ${bruno} where account_id = ${accountId} and status = 'snoozed'`);
    await expectSummaryMatchesConversations();
    // Customer messages arriving, then read: unread and back.
    await db.execute(sql`update conversations set last_message_preview = 'Hello', unread_count = unread_count + 1 where account_id = ${accountId}`);
    await expectSummaryMatchesConversations();
    await db.execute(sql`update conversations set unread_count = unread_count + 1 where account_id = ${accountId}`);
    await db.execute(sql`update conversations set unread_count = 0, assigned_to = ${adminId}, status = 'assigned'
      where id in (select id from conversations where account_id = ${accountId} and status = 'open' limit 1)`);
    await expectSummaryMatchesConversations();
    // An update that changes none of them (a new message's preview) leaves the counts alone.
    await db.execute(sql`update conversations set last_message_preview = 'Hello again' where account_id = ${accountId}`);
    await expectSummaryMatchesConversations();
    // A person removed for good: their conversations stay assigned to nobody (the foreign key's own update).
    await db.execute(sql`delete from users where id = ${bruno}`);
    await expectSummaryMatchesConversations();
    await db.execute(sql`delete from conversations where id in (select id from conversations where account_id = ${accountId} and status = 'assigned' limit 2)`);
    const report = await expectSummaryMatchesConversations();
    expect(report.conversations.open_now).toBeGreaterThan(0);
  });

  it("go with their account", async () => {
    const db = getDb();
    const other = await createTestAccount();
    await seedConversation({ accountId: other.account.id });
    await seedConversation({ accountId: other.account.id, status: "assigned", assignedTo: other.admin.id });
    const kept = async () => rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from conversation_counts where account_id = ${other.account.id} and n <> 0`))[0].n;
    expect(await kept()).toBe(2);
    await db.execute(sql`delete from accounts where id = ${other.account.id}`);
    expect(await kept()).toBe(0);
  });
});
