import { readFileSync } from "node:fs";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as csatRoute from "@/app/v1/config/csat/route";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as agentsRoute from "@/app/v1/reports/agents/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import * as timeseriesRoute from "@/app/v1/reports/timeseries/route";
import { getDb } from "@/db";
import { reportingEvents } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";
import { drain } from "@/tests/support/webhooks";

// Reports count what happened: a close stays in the range it happened in, with the agent who
// had the conversation then, after the customer's next message reopens it.

type Account = Awaited<ReturnType<typeof createTestAccount>>;

describe("reports from what happened", () => {
  let account: Account;
  let ana: Awaited<ReturnType<typeof addTestUser>>;
  let bruno: Awaited<ReturnType<typeof addTestUser>>;
  beforeEach(async () => {
    resetRateLimiters();
    account = await createTestAccount();
    ana = await addTestUser(account.account.id, "agent", "Ana Agent");
    bruno = await addTestUser(account.account.id, "agent", "Bruno Agent");
  });

  const customerSays = async (from: string, body: Record<string, unknown>) => {
    const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token: account.adminToken, body: { from, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body as { conversation_id: string };
  };
  const act = async (route: { POST: never }, name: string, token: string, id: string, body?: unknown) => {
    const res = await call(route.POST, { method: "POST", path: `/v1/conversations/${id}/${name}`, token, params: { id }, body });
    expect(res.status, res.text).toBe(200);
    await drain();
    return res.body;
  };
  const range = () => {
    const now = Date.now();
    return `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}`;
  };

  it("keeps a close that was rated and then reopened by the customer's thanks, for the agent who closed it", async () => {
    const enabled = await call(csatRoute.PUT, { method: "PUT", path: "/v1/config/csat", token: account.adminToken, body: { enabled: true, question: "How did we do?" } });
    expect(enabled.status).toBe(200);
    const from = nextPhone();
    const { conversation_id: id } = await customerSays(from, { type: "text", text: "Where is my order?" });
    await act(assignRoute as never, "assign", account.adminToken, id, { user_id: ana.user.id });
    await act(closeRoute as never, "close", ana.token, id);
    // The customer picks 5 from the survey's list, then says thanks: that reopens the conversation.
    await customerSays(from, { type: "interactive", interactive: { type: "list_reply", id: "csat_5", title: "5 - Excellent" } });
    await customerSays(from, { type: "text", text: "thanks!" });
    const reopened = await call(conversationRoute.GET, { path: "/", token: account.adminToken, params: { id } });
    expect(reopened.body).toMatchObject({ status: "assigned", assigned_to: ana.user.id, closed_at: null, csat: { score: 5 } });

    const agents = await call(agentsRoute.GET, { path: `/v1/reports/agents?${range()}`, token: account.adminToken });
    expect(agents.status).toBe(200);
    const row = (userId: string) => agents.body.data.find((entry: { user: { id: string } }) => entry.user.id === userId);
    expect(row(ana.user.id)).toMatchObject({ closed: 1, resolution_median_s: expect.any(Number), csat_average: 5 });
    const summary = await call(summaryRoute.GET, { path: `/v1/reports/summary?${range()}`, token: account.adminToken });
    expect(summary.body.conversations.closed).toBe(1);
    expect(summary.body.resolution_time.count).toBe(1);
    expect(summary.body.agents.find((agent: { user_id: string }) => agent.user_id === ana.user.id).conversations_closed).toBe(1);

    // Bruno takes it over and closes it again: each agent keeps their own close.
    await act(assignRoute as never, "assign", account.adminToken, id, { user_id: bruno.user.id });
    await act(closeRoute as never, "close", bruno.token, id);
    const after = await call(agentsRoute.GET, { path: `/v1/reports/agents?${range()}`, token: account.adminToken });
    const again = (userId: string) => after.body.data.find((entry: { user: { id: string } }) => entry.user.id === userId);
    expect(again(ana.user.id).closed).toBe(1);
    expect(again(bruno.user.id).closed).toBe(1);
    // The rating answered Ana's close: it stays hers.
    expect(again(ana.user.id).csat_average).toBe(5);
    expect(again(bruno.user.id).csat_average).toBeNull();
    const resolved = await call(summaryRoute.GET, { path: `/v1/reports/summary?${range()}`, token: account.adminToken });
    expect(resolved.body.resolution_time.count).toBe(2);
    const series = await call(timeseriesRoute.GET, { path: `/v1/reports/timeseries?metric=conversations_closed&interval=day&${range()}`, token: account.adminToken });
    expect(series.status, series.text).toBe(200);
    expect(series.body.data.reduce((sum: number, point: { value: number }) => sum + point.value, 0)).toBe(2);
  });

  it("fills the closes recorded before this table existed from the events, as the app records them", async () => {
    const from = nextPhone();
    const { conversation_id: id } = await customerSays(from, { type: "text", text: "Hello" });
    await act(assignRoute as never, "assign", account.adminToken, id, { user_id: ana.user.id });
    await act(closeRoute as never, "close", ana.token, id);
    await customerSays(from, { type: "text", text: "one more thing" });
    await act(assignRoute as never, "assign", account.adminToken, id, { user_id: bruno.user.id });
    await act(closeRoute as never, "close", bruno.token, id);
    const columns = { conversationId: reportingEvents.conversationId, userId: reportingEvents.userId, actorId: reportingEvents.actorId, valueS: reportingEvents.valueS, startedAt: reportingEvents.startedAt, createdAt: reportingEvents.createdAt };
    const recorded = await getDb().select(columns).from(reportingEvents).where(eq(reportingEvents.conversationId, id)).orderBy(asc(reportingEvents.createdAt));
    expect(recorded.map((row) => row.userId)).toEqual([ana.user.id, bruno.user.id]);

    // The migration's backfill, run again on this account's events alone, rebuilds the same rows.
    await getDb().delete(reportingEvents).where(eq(reportingEvents.accountId, account.account.id));
    const migration = readFileSync(path.join(process.cwd(), "db/migrations/0019_reporting-events.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((statement) => statement.includes("INSERT INTO"))!;
    await getDb().execute(sql.raw(backfill.replace(/;\s*$/, "").replace("WHERE e.type = 'conversation.closed'", `WHERE e.account_id = '${account.account.id}' AND e.type = 'conversation.closed'`)));
    const rebuilt = await getDb().select(columns).from(reportingEvents).where(eq(reportingEvents.conversationId, id)).orderBy(asc(reportingEvents.createdAt));
    expect(rebuilt).toEqual(recorded);
  });
});
