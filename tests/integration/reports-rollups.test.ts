import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/v1/reports/agents/route";
import * as heatmapRoute from "@/app/v1/reports/heatmap/route";
import * as slaRoute from "@/app/v1/reports/sla/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import { getDb, rowsOf } from "@/db";
import { messages } from "@/db/schema";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation, seedMessage } from "@/tests/support/seed";

// Reports read counts kept as messages are written (per 15-minute slot, per agent and UTC day,
// per conversation's first response). Whatever happens to a message afterwards (a status that
// turns a reply into a failure, a message deleted, an earlier message filed late), the counts
// must stay those of the messages themselves, also for ranges that start and end mid-slot.

let accountId: string;
let token: string;
let ana: string;
let bruno: string;
let conversationId: string;
let phone: string;

const at = (iso: string) => new Date(iso);
// Mid-slot and mid-day edges: 10:07 on the 1st to 13:52 on the 4th (UTC).
const RANGE = "from=2026-07-01T10:07:00.000Z&to=2026-07-04T13:52:00.000Z&tz=UTC";

async function summary() {
  const res = await call(summaryRoute.GET, { path: `/v1/reports/summary?${RANGE}`, token });
  expect(res.status).toBe(200);
  return res.body as {
    messages: Record<string, number>;
    first_response: { count: number; unanswered: number; median_seconds: number | null };
    agents: { user_id: string; messages_sent: number; first_responses: number }[];
  };
}

async function agents() {
  const res = await call(agentsRoute.GET, { path: `/v1/reports/agents?${RANGE}`, token });
  expect(res.status).toBe(200);
  return (res.body as { data: { user: { id: string }; messages_sent: number; first_response_median_s: number | null }[] }).data;
}

/** The rollups against the messages themselves, slot by slot and day by day. */
async function rollupsMatchMessages() {
  const db = getDb();
  const slotDiff = rowsOf(
    await db.execute(sql`
      with raw as (
        select date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00') as slot,
          count(*) filter (where direction = 'inbound')::int as received,
          count(*) filter (where direction = 'outbound')::int as sent,
          count(*) filter (where direction = 'outbound' and sender_type = 'user')::int as sent_by_agents,
          count(*) filter (where direction = 'outbound' and sender_type = 'automation')::int as automated,
          count(*) filter (where direction = 'outbound' and status = 'failed')::int as failed
        from messages where account_id = ${accountId} group by 1
      ),
      kept as (
        select slot, received, sent, sent_by_agents, automated, failed from report_message_slots
        where account_id = ${accountId} and (received, sent, sent_by_agents, automated, failed) <> (0, 0, 0, 0, 0)
      )
      (select * from raw except select * from kept) union all (select * from kept except select * from raw)`),
  );
  const dayDiff = rowsOf(
    await db.execute(sql`
      with raw as (
        select date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') as day, sender_user_id as user_id,
          count(*)::int as sent, count(*) filter (where status <> 'failed')::int as sent_ok
        from messages where account_id = ${accountId} and direction = 'outbound' and sender_type = 'user' and sender_user_id is not null
        group by 1, 2
      ),
      kept as (select day, user_id, sent, sent_ok from report_agent_days where account_id = ${accountId} and (sent, sent_ok) <> (0, 0))
      (select * from raw except select * from kept) union all (select * from kept except select * from raw)`),
  );
  expect(slotDiff).toEqual([]);
  expect(dayDiff).toEqual([]);
}

beforeAll(async () => {
  const created = await createTestAccount();
  accountId = created.account.id;
  token = created.adminToken;
  ana = (await addTestUser(accountId, "agent", "Ana Agent")).user.id;
  bruno = (await addTestUser(accountId, "agent", "Bruno Agent")).user.id;
  const seeded = await seedConversation({ accountId, phone: "5511955500001", createdAt: at("2026-07-01T10:00:00.000Z"), status: "assigned", assignedTo: ana });
  conversationId = seeded.conversation.id;
  phone = seeded.contact.phone;
  const message = (iso: string, direction: "inbound" | "outbound", by: string | "automation" | null, status?: "sent" | "delivered" | "read" | "failed") =>
    seedMessage({
      accountId,
      conversationId,
      phone,
      direction,
      senderType: direction === "inbound" ? "contact" : by === "automation" ? "automation" : "user",
      senderUserId: direction === "outbound" && by !== "automation" ? by : null,
      createdAt: at(iso),
      status,
    });
  await message("2026-07-01T10:05:00.000Z", "inbound", null); // before the range: the conversation's first question
  await message("2026-07-01T10:08:00.000Z", "inbound", null); // in the range's first, partial slot
  await message("2026-07-01T10:09:00.000Z", "outbound", "automation", "delivered");
  await message("2026-07-01T10:10:00.000Z", "outbound", ana, "sent"); // Ana's answer: 300 s after the first question
  await message("2026-07-02T09:00:00.000Z", "outbound", bruno, "failed");
  await message("2026-07-02T09:30:00.000Z", "inbound", null); // whole slots, whole day
  await message("2026-07-04T13:50:00.000Z", "inbound", null); // in the range's last, partial slot
  await message("2026-07-04T13:51:00.000Z", "outbound", bruno, "read");
  await message("2026-07-04T13:53:00.000Z", "inbound", null); // just after the range
});

describe("reports counted as messages are written", () => {
  it("counts the messages of a range that starts and ends mid-slot exactly", async () => {
    const report = await summary();
    expect(report.messages).toEqual({ received: 3, sent: 4, sent_by_agents: 3, automated: 1, failed: 1 });
    // The conversation's first question came before the range: no first response in it.
    expect(report.first_response.count).toBe(0);
    expect(report.agents.find((a) => a.user_id === bruno)?.messages_sent).toBe(2);
    expect((await agents()).find((a) => a.user.id === bruno)?.messages_sent).toBe(1); // the failed one is not sent
    const heatmap = await call(heatmapRoute.GET, { path: `/v1/reports/heatmap?${RANGE}`, token });
    expect((heatmap.body as { total: number }).total).toBe(3);
    await rollupsMatchMessages();
  });

  it("follows a reply that fails after it was sent, and a question filed late", async () => {
    const db = getDb();
    const wide = "from=2026-07-01T00:00:00.000Z&to=2026-07-05T00:00:00.000Z&tz=UTC";
    const first = async () => {
      const res = await call(summaryRoute.GET, { path: `/v1/reports/summary?${wide}`, token });
      return (res.body as { first_response: { count: number; median_seconds: number | null }; messages: Record<string, number> });
    };
    expect((await first()).first_response).toMatchObject({ count: 1, median_seconds: 300 });

    // Ana's answer turns out to have failed: the next reply that reached the network is Bruno's, days later.
    await db
      .update(messages)
      .set({ status: "failed" })
      .where(and(eq(messages.conversationId, conversationId), eq(messages.senderUserId, ana)));
    const afterFailure = await first();
    expect(afterFailure.messages.failed).toBe(2);
    expect(afterFailure.first_response.median_seconds).toBe((Date.parse("2026-07-04T13:51:00.000Z") - Date.parse("2026-07-01T10:05:00.000Z")) / 1000);
    await rollupsMatchMessages();

    // A question dated before everything, filed late: the first response is measured from it.
    await seedMessage({ accountId, conversationId, phone, direction: "inbound", createdAt: at("2026-07-01T09:05:00.000Z") });
    expect((await first()).first_response.median_seconds).toBe((Date.parse("2026-07-04T13:51:00.000Z") - Date.parse("2026-07-01T09:05:00.000Z")) / 1000);

    // The reply that counted is deleted: none is left, the question is unanswered.
    await db.delete(messages).where(and(eq(messages.conversationId, conversationId), eq(messages.status, "read")));
    const afterDelete = await first();
    expect(afterDelete.first_response).toMatchObject({ count: 0, median_seconds: null });
    await rollupsMatchMessages();
  });

  it("counts SLA targets met and breached on whole days and at the range's ends alike", async () => {
    const db = getDb();
    await db.execute(sql`insert into sla_policies (id, account_id, name, first_response_s, created_at, updated_at)
      values ('slap_rollup', ${accountId}, 'Rollup policy', 600, now(), now())`);
    const outcome = (id: string, iso: string, result: "met" | "breached", user: string | null) =>
      db.execute(sql`insert into sla_outcomes (id, account_id, conversation_id, sla_policy_id, kind, outcome, user_id, created_at)
        values (${id}, ${accountId}, ${conversationId}, 'slap_rollup', 'first_response', ${result}, ${user}, ${iso}::timestamptz)`);
    await outcome("slo_r1", "2026-07-01T10:06:00.000Z", "met", ana); // just before the range
    await outcome("slo_r2", "2026-07-01T10:07:00.000Z", "met", ana); // the range's first instant
    await outcome("slo_r3", "2026-07-02T12:00:00.000Z", "breached", bruno); // a whole day
    await outcome("slo_r4", "2026-07-03T00:00:00.000Z", "breached", null); // a whole day, nobody's
    await outcome("slo_r5", "2026-07-04T13:51:59.999Z", "met", bruno); // the range's last millisecond
    await outcome("slo_r6", "2026-07-04T13:52:00.000Z", "breached", bruno); // just after
    const res = await call(slaRoute.GET, { path: `/v1/reports/sla?${RANGE}`, token });
    expect(res.status).toBe(200);
    const body = res.body as { policies: { policy_id: string; met: number; breached: number }[]; agents: { user_id: string | null; met: number; breached: number }[] };
    expect(body.policies).toEqual([expect.objectContaining({ policy_id: "slap_rollup", met: 2, breached: 2 })]);
    const byUser = Object.fromEntries(body.agents.map((a) => [a.user_id ?? "nobody", [a.met, a.breached]]));
    expect(byUser).toEqual({ [ana]: [1, 0], [bruno]: [1, 1], nobody: [0, 1] });
    const kept = rowsOf<{ met: number; breached: number }>(
      await db.execute(sql`select sum(met)::int as met, sum(breached)::int as breached from report_sla_days where account_id = ${accountId}`),
    );
    expect(kept).toEqual([{ met: 3, breached: 3 }]);
  });

  it("lets a whole account go, its counts with it", async () => {
    const db = getDb();
    const other = await createTestAccount();
    const seeded = await seedConversation({ accountId: other.account.id, phone: "5511955500009", createdAt: at("2026-07-01T10:00:00.000Z") });
    await seedMessage({ accountId: other.account.id, conversationId: seeded.conversation.id, phone: seeded.contact.phone, direction: "inbound", createdAt: at("2026-07-01T10:01:00.000Z") });
    await seedMessage({ accountId: other.account.id, conversationId: seeded.conversation.id, phone: seeded.contact.phone, direction: "outbound", senderUserId: other.admin.id, status: "sent", createdAt: at("2026-07-01T10:02:00.000Z") });
    await db.execute(sql`insert into sla_policies (id, account_id, name, first_response_s, created_at, updated_at) values ('slap_gone', ${other.account.id}, 'Gone', 600, now(), now())`);
    await db.execute(sql`insert into sla_outcomes (id, account_id, conversation_id, sla_policy_id, kind, outcome, user_id, created_at)
      values ('slo_gone', ${other.account.id}, ${seeded.conversation.id}, 'slap_gone', 'first_response', 'met', ${other.admin.id}, now())`);
    await db.execute(sql`delete from accounts where id = ${other.account.id}`);
    const left = rowsOf<{ n: number }>(
      await db.execute(sql`select (select count(*) from report_message_slots where account_id = ${other.account.id})
        + (select count(*) from report_agent_days where account_id = ${other.account.id})
        + (select count(*) from report_first_responses where account_id = ${other.account.id})
        + (select count(*) from report_sla_days where account_id = ${other.account.id}) as n`),
    );
    expect(Number(left[0].n)).toBe(0);
  });
});
