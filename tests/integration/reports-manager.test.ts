import { eq } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/v1/reports/agents/route";
import * as exportRoute from "@/app/v1/reports/export/route";
import * as heatmapRoute from "@/app/v1/reports/heatmap/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import { getDb } from "@/db";
import { businessProfiles, contacts, conversations, events } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation, seedMessage } from "@/tests/support/seed";

// A small history whose every figure is computed by hand in the comments below.

const at = (iso: string) => new Date(iso);

/** The CSV as a spreadsheet would read it: the header row names the fields of every other row. */
function parseCsv(text: string) {
  const rows: string[][] = parse(text, { record_delimiter: "\r\n", relax_column_count: false });
  const [fields, ...records] = rows;
  return { fields, data: records.map((record) => Object.fromEntries(fields.map((field, i) => [field, record[i]]))) };
}
const RANGE = "from=2026-06-01T00:00:00.000Z&to=2026-06-08T00:00:00.000Z";

let accountId: string;
let adminToken: string;
let adminId: string;
let ana: { id: string; token: string };
let bruno: { id: string };
const ids: Record<string, string> = {};

async function conversation(key: string, input: {
  phone: string;
  createdAt: string;
  closedAt?: string;
  openedAt?: string;
  assignedTo?: string | null;
  csat?: { score: number; at: string };
  messages: { at: string; direction: "inbound" | "outbound"; by?: string | "automation"; status?: "failed" | "sent" | "delivered" | "read" }[];
}) {
  const { conversation: row, contact } = await seedConversation({
    accountId,
    phone: input.phone,
    createdAt: at(input.createdAt),
    status: input.closedAt ? "closed" : input.assignedTo ? "assigned" : "open",
    assignedTo: input.assignedTo ?? null,
    closedAt: input.closedAt ? at(input.closedAt) : null,
  });
  ids[key] = row.id;
  await getDb()
    .update(conversations)
    .set({
      openedAt: input.openedAt ? at(input.openedAt) : null,
      csatScore: input.csat?.score ?? null,
      csatAt: input.csat ? at(input.csat.at) : null,
      csatAskedAt: input.csat && input.closedAt ? at(input.closedAt) : null,
    })
    .where(eq(conversations.id, row.id));
  for (const message of input.messages) {
    await seedMessage({
      accountId,
      conversationId: row.id,
      phone: contact.phone,
      direction: message.direction,
      senderType: message.direction === "inbound" ? "contact" : message.by === "automation" ? "automation" : "user",
      senderUserId: message.direction === "outbound" && message.by !== "automation" ? (message.by ?? null) : null,
      createdAt: at(message.at),
      status: message.status,
    });
  }
}

async function assignmentEvent(conversationId: string, userId: string, when: string) {
  await getDb()
    .insert(events)
    .values({
      id: newId("event", at(when)),
      accountId,
      type: "conversation.assigned",
      data: { conversation: { id: conversationId, status: "assigned", assigned_to: userId, assigned_at: when }, user: { id: userId } },
      createdAt: at(when),
    });
}

beforeAll(async () => {
  const created = await createTestAccount();
  accountId = created.account.id;
  adminToken = created.adminToken;
  adminId = created.admin.id;
  const a = await addTestUser(accountId, "agent", "Ana Agent");
  const b = await addTestUser(accountId, "agent", "Bruno Agent");
  ana = { id: a.user.id, token: a.token };
  bruno = { id: b.user.id };

  // c1: answered by Ana after 120 s, resolved in 3,600 s, rated 5.
  await conversation("c1", {
    phone: "5511900000001",
    createdAt: "2026-06-01T10:00:00.000Z",
    closedAt: "2026-06-01T11:00:00.000Z",
    assignedTo: ana.id,
    csat: { score: 5, at: "2026-06-01T11:05:00.000Z" },
    messages: [
      { at: "2026-06-01T10:00:00.000Z", direction: "inbound" },
      { at: "2026-06-01T10:02:00.000Z", direction: "outbound", by: ana.id, status: "sent" },
    ],
  });
  // c2: Bruno's first reply failed (no response); the one delivered 600 s after the question is. 14,400 s, rated 3.
  await conversation("c2", {
    phone: "5511900000002",
    createdAt: "2026-06-02T09:00:00.000Z",
    closedAt: "2026-06-02T13:00:00.000Z",
    assignedTo: bruno.id,
    csat: { score: 3, at: "2026-06-02T14:00:00.000Z" },
    messages: [
      { at: "2026-06-02T09:00:00.000Z", direction: "inbound" },
      { at: "2026-06-02T09:01:00.000Z", direction: "outbound", by: bruno.id, status: "failed" },
      { at: "2026-06-02T09:10:00.000Z", direction: "outbound", by: bruno.id, status: "delivered" },
    ],
  });
  // c3: Ana answered after 300 s (read); reopened at 12:00 and closed at 12:30: resolution 1,800 s. Rated 4.
  await conversation("c3", {
    phone: "5511900000003",
    createdAt: "2026-06-03T08:00:00.000Z",
    openedAt: "2026-06-03T12:00:00.000Z",
    closedAt: "2026-06-03T12:30:00.000Z",
    assignedTo: ana.id,
    csat: { score: 4, at: "2026-06-03T12:40:00.000Z" },
    messages: [
      { at: "2026-06-03T08:00:00.000Z", direction: "inbound" },
      { at: "2026-06-03T08:05:00.000Z", direction: "outbound", by: ana.id, status: "read" },
    ],
  });
  // c4: Ana's only reply failed: unanswered, still open.
  await conversation("c4", {
    phone: "5511900000004",
    createdAt: "2026-06-04T08:00:00.000Z",
    assignedTo: ana.id,
    messages: [
      { at: "2026-06-04T08:00:00.000Z", direction: "inbound" },
      { at: "2026-06-04T08:03:00.000Z", direction: "outbound", by: ana.id, status: "failed" },
    ],
  });
  // c5: created before the range (its first response does not count), closed inside: 11 days = 950,400 s. Rated 1.
  await conversation("c5", {
    phone: "5511900000005",
    createdAt: "2026-05-25T00:00:00.000Z",
    closedAt: "2026-06-05T00:00:00.000Z",
    assignedTo: bruno.id,
    csat: { score: 1, at: "2026-06-05T01:00:00.000Z" },
    messages: [
      { at: "2026-05-25T00:00:00.000Z", direction: "inbound" },
      { at: "2026-05-25T00:10:00.000Z", direction: "outbound", by: bruno.id, status: "read" },
    ],
  });
  // c6: only the automation answered (no response); unassigned; 600 s; rated 5.
  await conversation("c6", {
    phone: "5511900000006",
    createdAt: "2026-06-06T10:00:00.000Z",
    closedAt: "2026-06-06T10:10:00.000Z",
    csat: { score: 5, at: "2026-06-06T10:20:00.000Z" },
    messages: [
      { at: "2026-06-06T10:00:00.000Z", direction: "inbound" },
      { at: "2026-06-06T10:00:05.000Z", direction: "outbound", by: "automation", status: "read" },
    ],
  });
  // c7: Bruno answered after 1,800 s; 10,800 s; rated 2 after the range ends (not counted).
  await conversation("c7", {
    phone: "5511900000007",
    createdAt: "2026-06-07T20:00:00.000Z",
    closedAt: "2026-06-07T23:00:00.000Z",
    assignedTo: bruno.id,
    csat: { score: 2, at: "2026-06-08T01:00:00.000Z" },
    messages: [
      { at: "2026-06-07T20:00:00.000Z", direction: "inbound" },
      { at: "2026-06-07T20:30:00.000Z", direction: "outbound", by: bruno.id, status: "sent" },
    ],
  });

  // Assignments: Ana took c1 twice, c3 and c4 in the range; Bruno c2 and c7; c5's came before the range.
  await assignmentEvent(ids.c1, ana.id, "2026-06-01T10:01:00.000Z");
  await assignmentEvent(ids.c1, ana.id, "2026-06-01T10:30:00.000Z");
  await assignmentEvent(ids.c3, ana.id, "2026-06-03T08:01:00.000Z");
  await assignmentEvent(ids.c4, ana.id, "2026-06-04T08:01:00.000Z");
  await assignmentEvent(ids.c2, bruno.id, "2026-06-02T09:00:30.000Z");
  await assignmentEvent(ids.c7, bruno.id, "2026-06-07T20:01:00.000Z");
  await assignmentEvent(ids.c5, bruno.id, "2026-05-25T00:01:00.000Z");
});

describe("summary", () => {
  it("counts only replies that reached the network as first responses", async () => {
    const res = await call(summaryRoute.GET, { path: `/v1/reports/summary?${RANGE}`, token: adminToken });
    expect(res.status).toBe(200);
    // In-range first messages: c1 120, c2 600 (not the failed 60), c3 300, c7 1800; c4 and c6 unanswered.
    // Sorted 120, 300, 600, 1800: median (300 + 600) / 2 = 450; mean 2820 / 4 = 705;
    // p90 at position 0.9 × 3 = 2.7: 600 + 0.7 × (1800 − 600) = 1440.
    expect(res.body.first_response).toEqual({ count: 4, unanswered: 2, median_seconds: 450, avg_seconds: 705, p90_seconds: 1440 });
  });

  it("measures resolution from creation, or the latest reopening, to the close", async () => {
    const res = await call(summaryRoute.GET, { path: `/v1/reports/summary?${RANGE}`, token: adminToken });
    // Closed in range: 600 (c6), 1800 (c3), 3600 (c1), 10800 (c7), 14400 (c2), 950400 (c5).
    // Median (3600 + 10800) / 2 = 7200; p90 at 0.9 × 5 = 4.5: 14400 + 0.5 × (950400 − 14400) = 482400.
    expect(res.body.resolution_time).toEqual({ count: 6, median_s: 7200, p90_s: 482400 });
  });

  it("sums the satisfaction answers given in the range", async () => {
    const res = await call(summaryRoute.GET, { path: `/v1/reports/summary?${RANGE}`, token: adminToken });
    // 5 (c1), 3 (c2), 4 (c3), 1 (c5), 5 (c6); c7's came after the range. Mean 18 / 5 = 3.6.
    expect(res.body.csat).toEqual({ responses: 5, average: 3.6, distribution: { "1": 1, "2": 0, "3": 1, "4": 1, "5": 2 } });
  });

  it("has empty figures for a range without activity", async () => {
    const res = await call(summaryRoute.GET, { path: "/v1/reports/summary?from=2026-01-01&to=2026-01-31", token: adminToken });
    expect(res.body.resolution_time).toEqual({ count: 0, median_s: null, p90_s: null });
    expect(res.body.csat).toEqual({ responses: 0, average: null, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } });
  });
});

describe("agents", () => {
  it("gives each agent their workload, speed and satisfaction", async () => {
    const res = await call(agentsRoute.GET, { path: `/v1/reports/agents?${RANGE}`, token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        user: { id: adminId, name: "Ada Admin" },
        assigned: 0,
        closed: 0,
        messages_sent: 0,
        first_response_median_s: null,
        resolution_median_s: null,
        csat_average: null,
      },
      {
        // c1, c3, c4 (c1 twice counts once); closed c1 3600 and c3 1800 → 2700; sent c1 and c3 (c4's failed);
        // first responses 120 and 300 → 210; ratings 5 and 4 → 4.5.
        user: { id: ana.id, name: "Ana Agent" },
        assigned: 3,
        closed: 2,
        messages_sent: 2,
        first_response_median_s: 210,
        resolution_median_s: 2700,
        csat_average: 4.5,
      },
      {
        // c2, c7 (c5's assignment was before the range); closed 14400, 950400, 10800 → 14400;
        // sent c2's delivered and c7's (c5's was before the range); first responses 600, 1800 → 1200; ratings 3, 1 → 2.
        user: { id: bruno.id, name: "Bruno Agent" },
        assigned: 2,
        closed: 3,
        messages_sent: 2,
        first_response_median_s: 1200,
        resolution_median_s: 14400,
        csat_average: 2,
      },
    ]);
  });

  it("refuses to before from, and a range over 366 days, naming the field", async () => {
    const backwards = await call(agentsRoute.GET, { path: "/v1/reports/agents?from=2026-06-08&to=2026-06-01", token: adminToken });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.details.map((d: { path: string }) => d.path)).toContain("to");
    const long = await call(agentsRoute.GET, { path: "/v1/reports/agents?from=2025-01-01&to=2026-01-03", token: adminToken });
    expect(long.status).toBe(400);
    expect(long.body.error.details[0].path).toBe("from");
  });
});

describe("export", () => {
  it("is a CSV with one row per conversation created in the range and the same figures", async () => {
    const res = await call(exportRoute.GET, { path: `/v1/reports/export?${RANGE}`, token: adminToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Named by the days it covers, the last one included: [1 June, 8 June) is 1 to 7 June.
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="conversations-2026-06-01-2026-06-07.csv"');
    const parsed = parseCsv(res.text);
    expect(parsed.fields).toEqual(["id", "contact_phone", "contact_name", "created_at", "first_response_s", "closed_at", "resolution_s", "assignee", "labels", "csat"]);
    // c5 was created before the range.
    expect(parsed.data.map((row) => row.id)).toEqual([ids.c1, ids.c2, ids.c3, ids.c4, ids.c6, ids.c7]);
    const byId = Object.fromEntries(parsed.data.map((row) => [row.id, row]));
    expect(byId[ids.c1]).toEqual({
      id: ids.c1,
      contact_phone: "5511900000001",
      contact_name: "Customer",
      created_at: "2026-06-01T10:00:00.000Z",
      first_response_s: "120",
      closed_at: "2026-06-01T11:00:00.000Z",
      resolution_s: "3600",
      assignee: "Ana Agent",
      labels: "",
      csat: "5",
    });
    expect(byId[ids.c2]).toMatchObject({ first_response_s: "600", resolution_s: "14400", assignee: "Bruno Agent", csat: "3" });
    expect(byId[ids.c3]).toMatchObject({ first_response_s: "300", resolution_s: "1800", csat: "4" });
    expect(byId[ids.c4]).toMatchObject({ first_response_s: "", closed_at: "", resolution_s: "", assignee: "Ana Agent", csat: "" });
    expect(byId[ids.c6]).toMatchObject({ first_response_s: "", resolution_s: "600", assignee: "", csat: "5" });
    expect(byId[ids.c7]).toMatchObject({ first_response_s: "1800", resolution_s: "10800", csat: "2" });
  });

  it("quotes what needs quoting and defuses spreadsheet formulas in names", async () => {
    const other = await createTestAccount();
    const { contact } = await seedConversation({ accountId: other.account.id, phone: "5511911111111", createdAt: at("2026-06-02T00:00:00.000Z") });
    await getDb().update(contacts).set({ name: '=HYPERLINK("http://x","y"), "Lee"' }).where(eq(contacts.id, contact.id));
    const res = await call(exportRoute.GET, { path: `/v1/reports/export?${RANGE}`, token: other.adminToken });
    const parsed = parseCsv(res.text);
    expect(parsed.data).toHaveLength(1);
    expect(parsed.data[0].contact_name).toBe(`'=HYPERLINK("http://x","y"), "Lee"`);
  });

  it("reads a range of many conversations in batches without losing one", async () => {
    const other = await createTestAccount();
    const base = at("2026-06-02T00:00:00.000Z").getTime();
    // Pairs share a creation instant, and a batch of 500 ends inside a pair: none skipped or repeated.
    const rows = Array.from({ length: 1_203 }, (_, i) => {
      const createdAt = new Date(base + Math.floor((i + 1) / 2) * 1000);
      return { i, createdAt, contactId: newId("contact", createdAt), conversationId: newId("conversation", createdAt) };
    });
    await getDb()
      .insert(contacts)
      .values(rows.map((r) => ({ id: r.contactId, accountId: other.account.id, phone: `5511922${String(r.i).padStart(6, "0")}`, createdAt: r.createdAt, updatedAt: r.createdAt })));
    await getDb()
      .insert(conversations)
      .values(rows.map((r) => ({ id: r.conversationId, accountId: other.account.id, contactId: r.contactId, status: "open" as const, createdAt: r.createdAt, updatedAt: r.createdAt })));
    const res = await call(exportRoute.GET, { path: `/v1/reports/export?${RANGE}`, token: other.adminToken });
    const parsed = parseCsv(res.text);
    expect(parsed.data).toHaveLength(1_203);
    expect(new Set(parsed.data.map((row) => row.id)).size).toBe(1_203);
  });

  it("refuses a range over 366 days", async () => {
    const res = await call(exportRoute.GET, { path: "/v1/reports/export?from=2025-01-01&to=2026-06-01", token: adminToken });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
  });
});

describe("heatmap", () => {
  async function accountInZone(timezone: string | null, inbound: string[]) {
    const other = await createTestAccount();
    if (timezone) {
      await getDb()
        .insert(businessProfiles)
        .values({ accountId: other.account.id, name: "Shop", hours: { timezone, weekly: {} }, updatedAt: new Date() })
        .onConflictDoUpdate({ target: businessProfiles.accountId, set: { hours: { timezone, weekly: {} } } });
    }
    const { conversation, contact } = await seedConversation({ accountId: other.account.id, phone: "5511933333333", createdAt: at(inbound[0]) });
    for (const when of inbound) {
      await seedMessage({ accountId: other.account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", createdAt: at(when) });
    }
    // An outbound message never counts.
    await seedMessage({ accountId: other.account.id, conversationId: conversation.id, phone: contact.phone, direction: "outbound", createdAt: at(inbound[0]) });
    return other.adminToken;
  }
  const cell = (body: { data: { weekday: string; hours: number[] }[] }, weekday: string, hour: number) =>
    body.data.find((row) => row.weekday === weekday)!.hours[hour];
  const nonZero = (body: { data: { weekday: string; hours: number[] }[] }) =>
    body.data.flatMap((row) => row.hours.flatMap((n, hour) => (n ? [`${row.weekday} ${hour}: ${n}`] : [])));

  it("counts on the business's clock across the spring-forward gap (America/New_York, 8 March 2026)", async () => {
    const token = await accountInZone("America/New_York", [
      "2026-03-07T12:00:00.000Z", // Saturday 07:00 EST
      "2026-03-08T06:30:00.000Z", // Sunday 01:30 EST
      "2026-03-08T07:30:00.000Z", // Sunday 03:30 EDT: 02:00–03:00 does not exist that day
      "2026-03-09T12:00:00.000Z", // Monday 08:00 EDT (07:00 without daylight saving)
    ]);
    const res = await call(heatmapRoute.GET, { path: "/v1/reports/heatmap?from=2026-03-07&to=2026-03-09&tz=America/New_York", token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ time_zone: "America/New_York", total: 4 });
    expect(nonZero(res.body)).toEqual(["mon 8: 1", "sat 7: 1", "sun 1: 1", "sun 3: 1"]);
    expect(cell(res.body, "sun", 2)).toBe(0);
    expect(res.body.data.map((row: { weekday: string }) => row.weekday)).toEqual(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
  });

  it("counts the repeated hour twice across the fall-back (America/New_York, 1 November 2026)", async () => {
    const token = await accountInZone("America/New_York", [
      "2026-11-01T05:30:00.000Z", // Sunday 01:30 EDT
      "2026-11-01T06:30:00.000Z", // Sunday 01:30 EST, the same wall-clock hour again
      "2026-11-02T13:00:00.000Z", // Monday 08:00 EST
    ]);
    const res = await call(heatmapRoute.GET, { path: "/v1/reports/heatmap?from=2026-10-31&to=2026-11-02&tz=America/New_York", token });
    expect(nonZero(res.body)).toEqual(["mon 8: 1", "sun 1: 2"]);
    expect(res.body.total).toBe(3);
  });

  it("puts a message on the business's weekday, not UTC's (America/Sao_Paulo, UTC−3 all year)", async () => {
    const token = await accountInZone("America/Sao_Paulo", ["2026-06-01T02:00:00.000Z"]); // Sunday 31 May 23:00 in São Paulo, Monday 02:00 UTC
    const res = await call(heatmapRoute.GET, { path: `/v1/reports/heatmap?${RANGE.replace("2026-06-01T00", "2026-05-31T00")}`, token });
    expect(nonZero(res.body)).toEqual(["sun 23: 1"]);
  });

  it("uses UTC when the business has no opening hours", async () => {
    const token = await accountInZone(null, ["2026-06-01T02:00:00.000Z"]);
    const res = await call(heatmapRoute.GET, { path: `/v1/reports/heatmap?${RANGE}`, token });
    expect(res.body.time_zone).toBe("UTC");
    expect(nonZero(res.body)).toEqual(["mon 2: 1"]);
  });

  it("adds up to the summary's messages received for the same range", async () => {
    const [heatmap, summary] = await Promise.all([
      call(heatmapRoute.GET, { path: `/v1/reports/heatmap?${RANGE}`, token: adminToken }),
      call(summaryRoute.GET, { path: `/v1/reports/summary?${RANGE}`, token: adminToken }),
    ]);
    expect(heatmap.body.total).toBe(summary.body.messages.received);
    expect(heatmap.body.total).toBe(6);
  });
});
