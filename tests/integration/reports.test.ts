import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import * as timeseriesRoute from "@/app/v1/reports/timeseries/route";
import { getDb } from "@/db";
import { type Message, users } from "@/db/schema";
import { zonedTimeToInstant } from "@/lib/profile/hours";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation, seedMessage } from "@/tests/support/seed";

// ---------------------------------------------------------------------------------------------
// A seeded, reproducible account history. Expected numbers are computed below in plain JS from
// the very rows written, independently of the SQL under test.

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type SeedConversation = { id: string; createdAt: Date; closedAt: Date | null; status: "open" | "assigned" | "closed"; assignedTo: string | null };

const FROM = new Date("2026-10-20T00:00:00.000Z");
const TO = new Date("2026-11-03T00:00:00.000Z");
const HISTORY_START = new Date("2026-10-12T00:00:00.000Z");
const HISTORY_DAYS = 25;

async function seedHistory({ accountId, agentIds, seed, count }: { accountId: string; agentIds: string[]; seed: number; count: number }) {
  const rand = random(seed);
  const pick = <T,>(list: T[]) => list[Math.floor(rand() * list.length)];
  const conversations: SeedConversation[] = [];
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(HISTORY_START.getTime() + Math.floor(rand() * HISTORY_DAYS * 86_400_000));
    const phone = `3460${String(1_000_000 + i).padStart(7, "0")}`;
    let at = createdAt.getTime();
    const step = (maxSeconds: number) => (at += 1 + Math.floor(rand() * maxSeconds * 1000));
    const plan: { direction: "inbound" | "outbound"; senderType: "contact" | "user" | "automation"; userId: string | null; at: number }[] = [];
    // Some conversations start with the business writing first (a send to a new number).
    if (rand() < 0.2) plan.push({ direction: "outbound", senderType: "user", userId: pick(agentIds), at: step(0) });
    if (rand() < 0.9) {
      plan.push({ direction: "inbound", senderType: "contact", userId: null, at: plan.length ? step(3 * 3600) : at });
      if (rand() < 0.4) plan.push({ direction: "outbound", senderType: "automation", userId: null, at: step(5) });
      if (rand() < 0.3) plan.push({ direction: "inbound", senderType: "contact", userId: null, at: step(600) });
      if (rand() < 0.8) {
        const replies = 1 + Math.floor(rand() * 3);
        for (let r = 0; r < replies; r++) {
          plan.push({ direction: "outbound", senderType: "user", userId: pick(agentIds), at: step(r === 0 ? 2 * 3600 : 900) });
          if (rand() < 0.5) plan.push({ direction: "inbound", senderType: "contact", userId: null, at: step(1800) });
        }
      }
    }
    const roll = rand();
    const assignedTo = roll < 0.7 ? pick(agentIds) : null;
    const status = roll < 0.45 ? "closed" : assignedTo ? "assigned" : "open";
    const closedAt = status === "closed" ? new Date(step(6 * 3600)) : null;
    const { conversation, contact } = await seedConversation({ accountId, phone, createdAt, status, assignedTo, closedAt });
    conversations.push({ id: conversation.id, createdAt, closedAt, status, assignedTo });
    for (const item of plan) {
      const failed = item.direction === "outbound" && rand() < 0.1;
      messages.push(
        await seedMessage({
          accountId,
          conversationId: conversation.id,
          phone: contact.phone,
          direction: item.direction,
          senderType: item.senderType,
          senderUserId: item.userId,
          createdAt: new Date(item.at),
          status: failed ? "failed" : undefined,
        }),
      );
    }
  }
  return { conversations, messages };
}

const inRange = (date: Date | null, from = FROM, to = TO) => date !== null && date >= from && date < to;
const byTime = (a: Message, b: Message) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = p * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}
const mean = (values: number[]) => (values.length ? values.reduce((sum, v) => sum + v, 0) / values.length : null);

function expectedFirstResponses(history: { conversations: SeedConversation[]; messages: Message[] }) {
  const result: { conversationId: string; seconds: number | null; userId: string | null }[] = [];
  for (const conversation of history.conversations) {
    const own = history.messages.filter((m) => m.conversationId === conversation.id).sort(byTime);
    const firstInbound = own.find((m) => m.direction === "inbound");
    if (!firstInbound || !inRange(firstInbound.createdAt)) continue;
    // Only a person's reply that reached the network counts: a failed send is no response.
    const reply = own.find(
      (m) => m.direction === "outbound" && m.senderType === "user" && m.status !== "failed" && m.createdAt >= firstInbound.createdAt,
    );
    result.push({
      conversationId: conversation.id,
      seconds: reply ? (reply.createdAt.getTime() - firstInbound.createdAt.getTime()) / 1000 : null,
      userId: reply?.senderUserId ?? null,
    });
  }
  return result;
}

let account: { id: string };
let adminToken: string;
let agentToken: string;
let agentIds: string[];
let deletedAgentId: string;
let history: Awaited<ReturnType<typeof seedHistory>>;

beforeAll(async () => {
  const test = await createTestAccount("Report Co");
  account = test.account;
  adminToken = test.adminToken;
  const alex = await addTestUser(account.id, "agent", "Alex Agent");
  const bea = await addTestUser(account.id, "agent", "Bea Agent");
  const gone = await addTestUser(account.id, "agent", "Gone Agent");
  await addTestUser(account.id, "agent", "Idle Agent");
  agentToken = alex.token;
  deletedAgentId = gone.user.id;
  agentIds = [test.admin.id, alex.user.id, bea.user.id, gone.user.id];
  history = await seedHistory({ accountId: account.id, agentIds, seed: 20261122, count: 60 });
  await getDb().update(users).set({ deletedAt: new Date() }).where(eq(users.id, deletedAgentId));

  // Another tenant's busy history must not show up anywhere.
  const other = await createTestAccount("Noise Co");
  await seedHistory({ accountId: other.account.id, agentIds: [other.admin.id], seed: 7, count: 15 });
}, 120_000);

const summary = (query: string, token = adminToken) => call(summaryRoute.GET, { path: `/v1/reports/summary?${query}`, token });
const series = (query: string, token = adminToken) => call(timeseriesRoute.GET, { path: `/v1/reports/timeseries?${query}`, token });
const range = `from=${FROM.toISOString()}&to=${TO.toISOString()}`;

describe("GET /v1/reports/summary", () => {
  it("counts conversations and messages of the range exactly as the seed rows say", async () => {
    const res = await summary(range);
    expect(res.status).toBe(200);
    const { conversations, messages } = history;
    const msgs = messages.filter((m) => inRange(m.createdAt));
    expect(res.body).toMatchObject({
      from: FROM.toISOString(),
      to: TO.toISOString(),
      tz: "UTC",
      conversations: {
        created: conversations.filter((c) => inRange(c.createdAt)).length,
        closed: conversations.filter((c) => inRange(c.closedAt)).length,
        open_now: conversations.filter((c) => c.status !== "closed").length,
        unassigned_now: conversations.filter((c) => c.status === "open").length,
      },
      messages: {
        received: msgs.filter((m) => m.direction === "inbound").length,
        sent: msgs.filter((m) => m.direction === "outbound").length,
        sent_by_agents: msgs.filter((m) => m.direction === "outbound" && m.senderType === "user").length,
        automated: msgs.filter((m) => m.senderType === "automation").length,
        failed: msgs.filter((m) => m.direction === "outbound" && m.status === "failed").length,
      },
    });
    // The seed is big enough that none of these is trivially zero.
    for (const value of [...Object.values(res.body.conversations), ...Object.values(res.body.messages)]) expect(value).toBeGreaterThan(0);
  });

  it("measures first response from the first inbound message to the first human reply", async () => {
    const res = await summary(range);
    const expected = expectedFirstResponses(history);
    const answered = expected.filter((r) => r.seconds !== null).map((r) => r.seconds as number);
    expect(answered.length).toBeGreaterThan(5);
    expect(expected.length - answered.length).toBeGreaterThan(0);
    expect(res.body.first_response.count).toBe(answered.length);
    expect(res.body.first_response.unanswered).toBe(expected.length - answered.length);
    expect(res.body.first_response.median_seconds).toBeCloseTo(percentile(answered, 0.5)!, 2);
    expect(res.body.first_response.avg_seconds).toBeCloseTo(mean(answered)!, 2);
    expect(res.body.first_response.p90_seconds).toBeCloseTo(percentile(answered, 0.9)!, 2);
  });

  it("reports every agent, including a deleted one with activity, with their own numbers", async () => {
    const res = await summary(range);
    const expected = expectedFirstResponses(history);
    const rows = res.body.agents as { user_id: string; name: string; deleted: boolean; messages_sent: number; conversations_closed: number; assigned_now: number; first_responses: number; median_first_response_seconds: number | null; avg_first_response_seconds: number | null }[];
    expect(rows.map((r) => r.name).sort()).toEqual(["Ada Admin", "Alex Agent", "Bea Agent", "Gone Agent", "Idle Agent"]);
    expect(rows.find((r) => r.user_id === deletedAgentId)?.deleted).toBe(true);
    for (const userId of agentIds) {
      const row = rows.find((r) => r.user_id === userId)!;
      const sent = history.messages.filter((m) => inRange(m.createdAt) && m.direction === "outbound" && m.senderType === "user" && m.senderUserId === userId);
      const mine = expected.filter((r) => r.userId === userId).map((r) => r.seconds as number);
      expect(row.messages_sent).toBe(sent.length);
      expect(row.conversations_closed).toBe(history.conversations.filter((c) => inRange(c.closedAt) && c.assignedTo === userId).length);
      expect(row.assigned_now).toBe(history.conversations.filter((c) => c.status === "assigned" && c.assignedTo === userId).length);
      expect(row.first_responses).toBe(mine.length);
      if (mine.length) {
        expect(row.median_first_response_seconds).toBeCloseTo(percentile(mine, 0.5)!, 2);
        expect(row.avg_first_response_seconds).toBeCloseTo(mean(mine)!, 2);
      } else {
        expect(row.median_first_response_seconds).toBeNull();
      }
    }
    const sentCounts = rows.map((r) => r.messages_sent);
    expect(sentCounts).toEqual([...sentCounts].sort((a, b) => b - a));
  });

  it("lists an idle agent with zeros in a range without activity", async () => {
    const res = await summary("from=2026-01-01T00:00:00Z&to=2026-01-08T00:00:00Z");
    expect(res.body.messages).toEqual({ received: 0, sent: 0, sent_by_agents: 0, automated: 0, failed: 0 });
    expect(res.body.first_response).toEqual({ count: 0, unanswered: 0, median_seconds: null, avg_seconds: null, p90_seconds: null });
    expect(res.body.agents.find((a: { name: string }) => a.name === "Idle Agent")).toMatchObject({ messages_sent: 0, first_responses: 0, median_first_response_seconds: null });
    expect(res.body.agents.find((a: { name: string }) => a.name === "Gone Agent")).toBeUndefined();
  });

  it("defaults to the last 7 days and is readable by agents", async () => {
    const before = Date.now();
    const res = await summary("", agentToken);
    expect(res.status).toBe(200);
    const to = new Date(res.body.to).getTime();
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(to - new Date(res.body.from).getTime()).toBe(7 * 86_400_000);
  });

  it("with only from, reports up to now", async () => {
    const from = new Date(Date.now() - 30 * 86_400_000);
    const before = Date.now();
    const res = await summary(`from=${from.toISOString()}`);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(from.toISOString());
    const to = new Date(res.body.to).getTime();
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(to).toBeLessThanOrEqual(after + 1000);
  });

  it("with only to, reports the 7 days before it", async () => {
    const res = await summary("to=2026-03-10T12:00:00Z");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: "2026-03-03T12:00:00.000Z", to: "2026-03-10T12:00:00.000Z" });
  });

  it("reads date-only bounds as whole days of the report's time zone", async () => {
    const res = await summary("from=2026-10-20&to=2026-11-02&tz=Europe/Madrid");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: "2026-10-19T22:00:00.000Z", to: "2026-11-02T23:00:00.000Z", tz: "Europe/Madrid" });
  });
});

/** Local-day buckets computed with Intl, not SQL. */
function localDayBuckets(from: Date, to: Date, timeZone: string) {
  const parts = (at: Date) => {
    const values = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" }).formatToParts(at).map((p) => [p.type, Number(p.value)]),
    );
    return { year: values.year, month: values.month, day: values.day };
  };
  const start = parts(from);
  const last = parts(new Date(to.getTime() - 1));
  const buckets: Date[] = [];
  for (let offset = 0; ; offset++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
    const day = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    buckets.push(zonedTimeToInstant({ ...day, timeZone }));
    if (day.year === last.year && day.month === last.month && day.day === last.day) break;
  }
  return buckets;
}

function countInto(buckets: Date[], instants: Date[], from: Date, to: Date) {
  return buckets.map((start, index) => {
    const end = buckets[index + 1] ?? new Date(8.64e15);
    return instants.filter((at) => at >= start && at < end && at >= from && at < to).length;
  });
}

describe("GET /v1/reports/timeseries", () => {
  const instantsOf = (metric: string): Date[] => {
    const { messages, conversations } = history;
    if (metric === "messages_received") return messages.filter((m) => m.direction === "inbound").map((m) => m.createdAt);
    if (metric === "messages_sent") return messages.filter((m) => m.direction === "outbound").map((m) => m.createdAt);
    if (metric === "conversations_created") return conversations.map((c) => c.createdAt);
    return conversations.flatMap((c) => (c.closedAt ? [c.closedAt] : []));
  };

  it.each([
    ["messages_received", "UTC"],
    ["messages_sent", "UTC"],
    ["conversations_created", "UTC"],
    ["conversations_closed", "UTC"],
    // Madrid falls back on 2026-10-25: that local day has 25 hours.
    ["messages_received", "Europe/Madrid"],
    ["messages_sent", "America/Sao_Paulo"],
    ["conversations_created", "Asia/Kolkata"],
  ])("%s by day in %s: zero-filled local days that add up to the summary", async (metric, tz) => {
    const res = await series(`metric=${metric}&interval=day&${range}&tz=${tz}`);
    expect(res.status).toBe(200);
    const buckets = localDayBuckets(FROM, TO, tz);
    expect(res.body.data.map((d: { t: string }) => d.t)).toEqual(buckets.map((b) => b.toISOString()));
    expect(res.body.data.map((d: { value: number }) => d.value)).toEqual(countInto(buckets, instantsOf(metric), FROM, TO));
    expect(res.body.data.some((d: { value: number }) => d.value === 0)).toBe(true);
    expect(res.body).toMatchObject({ metric, interval: "day", tz, from: FROM.toISOString(), to: TO.toISOString() });
  });

  it("has 25 hours in Madrid's fall-back day", async () => {
    const res = await series(`metric=messages_received&interval=day&${range}&tz=Europe/Madrid`);
    const index = res.body.data.findIndex((d: { t: string }) => d.t === "2026-10-24T22:00:00.000Z");
    expect(res.body.data[index + 1].t).toBe("2026-10-25T23:00:00.000Z");
  });

  it.each([
    ["UTC", "2026-10-24T00:00:00.000Z", "2026-10-26T00:00:00.000Z", 48],
    // New York falls back on 2026-11-01: 25 distinct hours in that local day, none merged.
    ["America/New_York", "2026-11-01T04:00:00.000Z", "2026-11-02T05:00:00.000Z", 25],
    ["Asia/Kolkata", "2026-10-24T00:00:00.000Z", "2026-10-25T00:00:00.000Z", 25],
  ])("counts by hour in %s", async (tz, fromIso, toIso, bucketCount) => {
    const from = new Date(fromIso);
    const to = new Date(toIso);
    const res = await series(`metric=messages_sent&interval=hour&from=${fromIso}&to=${toIso}&tz=${tz}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(bucketCount);
    // Hour buckets start on the zone's whole hours (Kolkata is UTC+05:30).
    const first = new Date(res.body.data[0].t);
    const alignMs = tz === "Asia/Kolkata" ? 30 * 60_000 : 0;
    expect((first.getTime() - alignMs) % 3_600_000).toBe(0);
    const buckets = res.body.data.map((d: { t: string }) => new Date(d.t));
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].getTime() - buckets[i - 1].getTime()).toBe(3_600_000);
    expect(res.body.data.map((d: { value: number }) => d.value)).toEqual(countInto(buckets, instantsOf("messages_sent"), from, to));
  });

  it("adds up to the summary's totals", async () => {
    const [received, closed] = await Promise.all([series(`metric=messages_received&${range}`), series(`metric=conversations_closed&${range}`)]);
    const totals = await summary(range);
    const sum = (res: { body: { data: { value: number }[] } }) => res.body.data.reduce((s, d) => s + d.value, 0);
    expect(sum(received)).toBe(totals.body.messages.received);
    expect(sum(closed)).toBe(totals.body.conversations.closed);
  });
});

describe("report input checks", () => {
  it.each([
    ["from after to", `from=2026-11-03T00:00:00Z&to=2026-10-20T00:00:00Z`, "from"],
    ["from equal to to", `from=2026-11-03T00:00:00Z&to=2026-11-03T00:00:00Z`, "from"],
    ["a range over 366 days", `from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:01Z`, "from"],
    ["a leap year and a day, as dates", `from=2024-01-01&to=2025-01-01`, "from"],
    ["a malformed from", `from=yesterday`, "from"],
    ["an impossible date", `from=2026-02-30`, "from"],
    ["a local time without zone", `to=2026-11-03T00:00:00`, "to"],
    ["an unknown time zone", `tz=Mars/Olympus`, "tz"],
    ["an offset instead of a zone", `tz=%2B02:00`, "tz"],
    ["a future from without to", `from=2099-01-01T00:00:00Z`, "from"],
    ["a from over 366 days ago without to", `from=${new Date(Date.now() - 367 * 86_400_000).toISOString()}`, "from"],
  ])("summary refuses %s with a 400 naming the field", async (_name, query, field) => {
    const res = await summary(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details[0].path).toBe(field);
  });

  it.each([
    ["a missing metric", "interval=day", "metric"],
    ["an unknown metric", "metric=revenue", "metric"],
    ["an unknown interval", "metric=messages_sent&interval=week", "interval"],
    ["a range over 366 days", "metric=messages_sent&from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "from"],
    ["from after to", "metric=messages_sent&from=2026-11-03T00:00:00Z&to=2026-10-20T00:00:00Z", "from"],
  ])("timeseries refuses %s with a 400 naming the field", async (_name, query, field) => {
    const res = await series(query);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("accepts exactly 366 days", async () => {
    const res = await series("metric=messages_sent&from=2025-11-01T00:00:00Z&to=2026-11-02T00:00:00Z");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(366);
  });

  it("needs a token with the reports:read scope", async () => {
    expect((await call(summaryRoute.GET, { path: "/v1/reports/summary" })).status).toBe(401);
    const token = await call(tokensRoute.POST, {
      method: "POST",
      path: "/v1/auth/tokens",
      token: adminToken,
      body: { name: "no reports", permissions: ["messages:read"], expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    const res = await series("metric=messages_sent", token.body.token);
    expect(res.status).toBe(403);
    expect(res.body.error.details[0]).toMatchObject({ scope: "reports:read" });
  });
});
