import { beforeAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/v1/reports/agents/route";
import * as exportRoute from "@/app/v1/reports/export/route";
import * as heatmapRoute from "@/app/v1/reports/heatmap/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import * as timeseriesRoute from "@/app/v1/reports/timeseries/route";
import { getDb } from "@/db";
import { businessProfiles } from "@/db/schema";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { seedConversation, seedMessage } from "@/tests/support/seed";

// Reports speak the business's time zone everywhere: a date-only range without `tz` is whole
// days on the business's clock, as are day buckets and the export's file name.

const ZONE = "America/Sao_Paulo"; // UTC-3 all year
let token: string;

beforeAll(async () => {
  const { account, adminToken } = await createTestAccount();
  token = adminToken;
  await getDb()
    .insert(businessProfiles)
    .values({ accountId: account.id, name: "Loja", hours: { timezone: ZONE, weekly: {} }, updatedAt: new Date() })
    .onConflictDoUpdate({ target: businessProfiles.accountId, set: { hours: { timezone: ZONE, weekly: {} } } });
  // 22:30 on 31 May in São Paulo, already 1 June in UTC.
  const late = new Date("2026-06-01T01:30:00.000Z");
  const { conversation, contact } = await seedConversation({ accountId: account.id, phone: "5511944444444", createdAt: late });
  await seedMessage({ accountId: account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", createdAt: late });
});

describe("reports in the business's time zone", () => {
  it("reads a date-only range without tz as whole days in the business's zone", async () => {
    const summary = await call(summaryRoute.GET, { path: "/v1/reports/summary?from=2026-05-31&to=2026-05-31", token });
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body).toMatchObject({ tz: ZONE, from: "2026-05-31T03:00:00.000Z", to: "2026-06-01T03:00:00.000Z" });
    expect(summary.body.messages.received).toBe(1);
    expect(summary.body.conversations.created).toBe(1);
    const nextDay = await call(summaryRoute.GET, { path: "/v1/reports/summary?from=2026-06-01&to=2026-06-01", token });
    expect(nextDay.body.messages.received).toBe(0);

    const agents = await call(agentsRoute.GET, { path: "/v1/reports/agents?from=2026-05-31&to=2026-05-31", token });
    expect(agents.body).toMatchObject({ tz: ZONE, from: "2026-05-31T03:00:00.000Z" });
    const heatmap = await call(heatmapRoute.GET, { path: "/v1/reports/heatmap?from=2026-05-31&to=2026-05-31", token });
    expect(heatmap.body).toMatchObject({ tz: ZONE, time_zone: ZONE, total: 1 });
    // Sunday 31 May, 22:00 on the business's clock.
    expect(heatmap.body.data.find((row: { weekday: string }) => row.weekday === "sun").hours[22]).toBe(1);

    const series = await call(timeseriesRoute.GET, { path: "/v1/reports/timeseries?metric=messages_received&interval=day&from=2026-05-31&to=2026-06-01", token });
    expect(series.status, series.text).toBe(200);
    expect(series.body.data).toEqual([
      { t: "2026-05-31T03:00:00.000Z", value: 1 },
      { t: "2026-06-01T03:00:00.000Z", value: 0 },
    ]);
  });

  it("names the export by the days it covers on the business's clock, the last one included", async () => {
    const csv = await call(exportRoute.GET, { path: "/v1/reports/export?from=2026-05-31&to=2026-05-31", token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="conversations-2026-05-31-2026-05-31.csv"');
    expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(2);
    const week = await call(exportRoute.GET, { path: "/v1/reports/export?from=2026-05-25&to=2026-05-31", token });
    expect(week.headers.get("content-disposition")).toBe('attachment; filename="conversations-2026-05-25-2026-05-31.csv"');
  });

  it("keeps a tz the caller gives", async () => {
    const utc = await call(summaryRoute.GET, { path: "/v1/reports/summary?from=2026-05-31&to=2026-05-31&tz=UTC", token });
    expect(utc.body).toMatchObject({ tz: "UTC", from: "2026-05-31T00:00:00.000Z" });
    expect(utc.body.messages.received).toBe(0);
    const named = await call(exportRoute.GET, { path: "/v1/reports/export?from=2026-06-01&to=2026-06-01&tz=UTC", token });
    expect(named.headers.get("content-disposition")).toBe('attachment; filename="conversations-2026-06-01-2026-06-01.csv"');
  });
});
