import { describe, expect, it } from "vitest";
import * as stats from "@/app/v1/webhooks/[id]/stats/route";
import { getDb } from "@/db";
import { webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { getWebhookTimeline } from "@/lib/webhooks/get-webhook-stats";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { verbContext } from "@/lib/server/context";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A webhook with a known attempt history: [age in ms, status, duration]. */
async function seed(history: [number, "succeeded" | "failed" | "pending", number | null][], consecutiveFailures = 0) {
  const { account, admin, adminToken } = await createTestAccount();
  const now = Date.now();
  const webhookId = newId("webhook");
  await getDb().insert(webhooks).values({ id: webhookId, accountId: account.id, url: "https://example.com/h", events: ["*"], secret: "s".repeat(20), status: "active", consecutiveFailures });
  const deliveryId = newId("delivery");
  await getDb().insert(webhookDeliveries).values({ id: deliveryId, accountId: account.id, webhookId, eventId: "evt_x", eventType: "message.received", payload: "{}", status: "pending" });
  if (history.length) {
    await getDb()
      .insert(webhookAttempts)
      .values(
        history.map(([age, status, durationMs], i) => ({
          id: newId("attempt"),
          accountId: account.id,
          webhookId,
          deliveryId,
          eventId: "evt_x",
          eventType: "message.received",
          attempt: i + 1,
          status,
          durationMs,
          attemptedAt: new Date(now - age),
        })),
      );
  }
  return { ctx: verbContext({ accountId: account.id, user: admin }), adminToken, webhookId, now };
}

const getStats = (token: string, id: string, window?: string) =>
  call(stats.GET, { path: `/v1/webhooks/${id}/stats${window ? `?window=${window}` : ""}`, token, params: { id } });

describe("GET /v1/webhooks/{id}/stats", () => {
  it("computes counts, success rate, average and p95 durations per window in SQL", async () => {
    const history: [number, "succeeded" | "failed" | "pending", number | null][] = [
      ...[10, 20, 30, 40, 50, 60, 70, 80].map((d, i) => [HOUR * (i + 1), "succeeded", d] as [number, "succeeded", number]),
      [30 * 60_000, "failed", 90],
      [20 * 60_000, "failed", 100],
      [60_000, "pending", null],
      [3 * DAY, "failed", 1000],
      [20 * DAY, "succeeded", 5],
      [40 * DAY, "failed", 7],
    ];
    const { adminToken, webhookId, now } = await seed(history, 3);

    const day = await getStats(adminToken, webhookId, "24h");
    expect(day.status).toBe(200);
    expect(day.body).toEqual({
      window: "24h",
      total: 11,
      succeeded: 8,
      failed: 2,
      pending: 1,
      success_rate: 0.8,
      avg_duration_ms: 55,
      // percentile_cont(0.95) of 10..100 = 95.5, rounded
      p95_duration_ms: 96,
      last_success_at: new Date(now - HOUR).toISOString(),
      last_failure_at: new Date(now - 20 * 60_000).toISOString(),
      consecutive_failures: 3,
    });

    const week = (await getStats(adminToken, webhookId, "7d")).body;
    expect(week).toMatchObject({ window: "7d", total: 12, succeeded: 8, failed: 3, pending: 1, success_rate: 0.7273, avg_duration_ms: 141, p95_duration_ms: 550 });

    const month = (await getStats(adminToken, webhookId, "30d")).body;
    expect(month).toMatchObject({ window: "30d", total: 13, succeeded: 9, failed: 3, success_rate: 0.75, avg_duration_ms: 130 });
    // last_* describe the whole history, not the window.
    expect(month.last_failure_at).toBe(day.body.last_failure_at);

    expect((await getStats(adminToken, webhookId)).body.window).toBe("24h");
    const bad = await getStats(adminToken, webhookId, "1y");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("window");
  });

  it("answers zeros and nulls for a webhook without attempts", async () => {
    const { adminToken, webhookId } = await seed([]);
    expect((await getStats(adminToken, webhookId, "30d")).body).toEqual({
      window: "30d",
      total: 0,
      succeeded: 0,
      failed: 0,
      pending: 0,
      success_rate: null,
      avg_duration_ms: null,
      p95_duration_ms: null,
      last_success_at: null,
      last_failure_at: null,
      consecutive_failures: 0,
    });
  });

  it("buckets attempts per hour (24h) and per day (7d, 30d) for the settings chart", async () => {
    const { ctx, webhookId } = await seed([
      [5 * 60_000, "succeeded", 10],
      [6 * 60_000, "failed", 10],
      [2 * DAY, "succeeded", 10],
      [50 * DAY, "succeeded", 10],
    ]);
    const hours = await getWebhookTimeline({ ctx, id: webhookId, window: "24h" });
    expect(hours).toHaveLength(24);
    expect(hours.reduce((n, b) => n + b.succeeded + b.failed, 0)).toBe(2);
    const days = await getWebhookTimeline({ ctx, id: webhookId, window: "30d" });
    expect(days).toHaveLength(30);
    expect(days.reduce((n, b) => n + b.succeeded, 0)).toBe(2);
    expect(days.reduce((n, b) => n + b.failed, 0)).toBe(1);
    expect(Date.parse(days[29].t)).toBe(Math.floor(Date.now() / DAY) * DAY);
  });
});
