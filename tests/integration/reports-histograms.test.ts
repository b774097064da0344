import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as agentsRoute from "@/app/v1/reports/agents/route";
import * as summaryRoute from "@/app/v1/reports/summary/route";
import { getDb, rowsOf } from "@/db";
import { bucketOf, durationStats } from "@/lib/reports/durations";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";

// Reports over long ranges read per-day histograms and daily rollups kept by triggers, never the
// closes, first responses and assignments themselves. On a random account, with repeated
// closes, closes never recorded as such, reassignments and replies that fail, every figure must
// equal the one counted from the recorded rows, whatever the range's edges, also after
// conversations are reopened, closes deleted and replies fail later. A median read from the
// histograms is within one bucket of the exact one.

let accountId: string;
let token: string;
let team: string[];

const DAY = 86_400_000;
const START = Date.parse("2026-03-01T00:00:00.000Z");

/** A small deterministic generator: the same "random" account on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: T[]) => items[Math.floor(next() * items.length)] };
}

const iso = (ms: number) => new Date(ms).toISOString();

async function seed() {
  const db = getDb();
  const random = generator(38);
  const conversations: string[] = [];
  const rows = { contacts: [] as string[], conversations: [] as string[], messages: [] as string[], closes: [] as string[], events: [] as string[] };
  const q = (value: string | null) => (value === null ? "null" : `'${value}'`);
  for (let c = 0; c < 240; c++) {
    const id = `conv_hist${String(c).padStart(12, "0")}`;
    conversations.push(id);
    const created = START + random.int(20 * DAY);
    const assignee = random.next() < 0.8 ? random.pick(team) : null;
    rows.contacts.push(`('ct_hist${c}', '${accountId}', '4477000${String(c).padStart(5, "0")}', 'Customer', '${iso(created)}', '${iso(created)}')`);
    // Closes: none, one or several (recorded, with the assignee then), and now and then a close
    // that was never recorded (the conversation's own closed_at).
    let at = created;
    let closedAt: number | null = null;
    const closes = random.int(4);
    for (let k = 0; k < closes; k++) {
      at += 60_000 + random.int(3 * DAY);
      const by = random.next() < 0.85 ? random.pick(team) : null;
      const seconds = random.next() < 0.05 ? random.next() : random.int(2 * DAY) + random.next();
      rows.closes.push(`('rpe_hist${c}_${k}', '${accountId}', '${id}', 'conversation_resolved', ${q(by)}, ${seconds}, '${iso(at - seconds * 1000)}', '${iso(at)}')`);
      closedAt = at;
    }
    if (random.next() < 0.15) closedAt = at + 60_000 + random.int(DAY); // closed again, not recorded
    else if (closedAt !== null && random.next() < 0.3) closedAt = null; // reopened since
    const status = closedAt !== null ? "closed" : assignee ? "assigned" : "open";
    rows.conversations.push(
      `('${id}', '${accountId}', 'ct_hist${c}', '${status}', ${q(assignee)}, ${closedAt === null ? "null" : `'${iso(closedAt)}'`}, '${iso(created)}', '${iso(created)}')`,
    );
    // Assignments, some repeated to the same person.
    for (let k = random.int(4); k > 0; k--) {
      rows.events.push(
        `('evt_hist${c}_${k}', '${accountId}', 'conversation.assigned', '{"conversation":{"id":"${id}"},"user":{"id":"${random.pick(team)}"}}', '${iso(created + random.int(5 * DAY))}')`,
      );
    }
    // The customer asks (or not), agents answer (or fail to).
    let t = created;
    for (let k = 0, turns = random.int(6); k < turns; k++) {
      t += random.int(6 * 3600_000) + 1;
      const inbound = k === 0 || random.next() < 0.4;
      const status = inbound ? "received" : random.pick(["sent", "delivered", "read", "failed"]);
      rows.messages.push(
        `('msg_hist${c}_${k}', '${accountId}', '${id}', '${inbound ? "inbound" : "outbound"}', '447700000000', '15550000000', 'text', 'hi', '${status}', '${inbound ? "contact" : "user"}', ${inbound ? "null" : q(random.pick(team))}, '${iso(t)}', '${iso(t)}')`,
      );
    }
  }
  await db.execute(sql.raw(`insert into contacts (id, account_id, phone, name, created_at, updated_at) values ${rows.contacts.join(", ")}`));
  await db.execute(
    sql.raw(`insert into conversations (id, account_id, contact_id, status, assigned_to, closed_at, created_at, updated_at) values ${rows.conversations.join(", ")}`),
  );
  await db.execute(
    sql.raw(
      `insert into messages (id, account_id, conversation_id, direction, from_number, to_number, type, text, status, sender_type, sender_user_id, created_at, updated_at) values ${rows.messages.join(", ")}`,
    ),
  );
  // Closes one statement at a time as well as in bulk: the triggers must count both alike.
  await db.execute(sql.raw(`insert into reporting_events (id, account_id, conversation_id, name, user_id, value_s, started_at, created_at) values ${rows.closes.slice(0, 20).join(", ")}`));
  for (const row of rows.closes.slice(20, 40)) {
    await db.execute(sql.raw(`insert into reporting_events (id, account_id, conversation_id, name, user_id, value_s, started_at, created_at) values ${row}`));
  }
  await db.execute(sql.raw(`insert into reporting_events (id, account_id, conversation_id, name, user_id, value_s, started_at, created_at) values ${rows.closes.slice(40).join(", ")}`));
  await db.execute(sql.raw(`insert into events (id, account_id, type, data, created_at) values ${rows.events.join(", ")}`));
  // Satisfaction answers an hour after a close, some for conversations reopened since.
  await db.execute(sql`
    update conversations c set csat_score = 1 + (abs(hashtext(c.id)) % 5), csat_at = last.created_at + interval '1 hour'
    from (select conversation_id, max(created_at) as created_at from reporting_events where account_id = ${accountId} group by 1) last
    where c.id = last.conversation_id and abs(hashtext(c.id)) % 3 = 0`);
  return conversations;
}

/** The figures counted from the recorded rows themselves, as the reports counted them before the rollups. */
async function fromRecordedRows(from: string, to: string) {
  const db = getDb();
  const closes = sql`(
    select r.conversation_id, r.user_id, greatest(r.value_s, 0) as seconds, r.created_at as closed_at
    from reporting_events r where r.account_id = ${accountId} and r.name = 'conversation_resolved'
    union all
    select c.id, c.assigned_to, greatest(extract(epoch from (c.closed_at - coalesce(c.opened_at, c.created_at)))::float8, 0), c.closed_at
    from conversations c
    where c.account_id = ${accountId} and c.closed_at is not null
      and not exists (select 1 from reporting_events r where r.conversation_id = c.id and r.account_id = c.account_id and r.name = 'conversation_resolved' and r.created_at = c.closed_at)
  )`;
  const resolution = rowsOf<{ user_id: string | null; total: number; count: number; conversations: number; median: number | null; p90: number | null }>(
    await db.execute(sql`
      select user_id, grouping(user_id)::int as total, count(*)::int as count, count(distinct conversation_id)::int as conversations,
        percentile_cont(0.5) within group (order by seconds) as median, percentile_cont(0.9) within group (order by seconds) as p90
      from ${closes} x where closed_at >= ${from}::timestamptz and closed_at < ${to}::timestamptz
      group by grouping sets ((), (user_id))`),
  );
  const responses = rowsOf<{ user_id: string | null; total: number; answered: number; unanswered: number; median: number | null; p90: number | null; avg: number | null }>(
    await db.execute(sql`
      with r as (
        select reply_user_id as user_id, extract(epoch from (reply_at - inbound_at))::float8 as seconds
        from report_first_responses where account_id = ${accountId} and inbound_at >= ${from}::timestamptz and inbound_at < ${to}::timestamptz
      )
      select user_id, grouping(user_id)::int as total, count(seconds)::int as answered, (count(*) - count(seconds))::int as unanswered,
        percentile_cont(0.5) within group (order by seconds) as median, percentile_cont(0.9) within group (order by seconds) as p90, avg(seconds) as avg
      from r group by grouping sets ((), (user_id))`),
  );
  const assigned = rowsOf<{ user_id: string; n: number }>(
    await db.execute(sql`
      select data->'user'->>'id' as user_id, count(distinct data->'conversation'->>'id')::int as n
      from events where account_id = ${accountId} and type = 'conversation.assigned'
        and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
      group by 1`),
  );
  const [counts] = rowsOf<{ created: number; open_now: number; unassigned_now: number; responses: number; average: number | null; s1: number; s5: number }>(
    await db.execute(sql`
      select
        (select count(*)::int from conversations where account_id = ${accountId} and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz) as created,
        (select count(*)::int from conversations where account_id = ${accountId} and status in ('open', 'assigned')) as open_now,
        (select count(*)::int from conversations where account_id = ${accountId} and status = 'open') as unassigned_now,
        count(*)::int as responses, avg(csat_score)::float8 as average,
        count(*) filter (where csat_score = 1)::int as s1, count(*) filter (where csat_score = 5)::int as s5
      from conversations
      where account_id = ${accountId} and csat_score is not null and csat_at >= ${from}::timestamptz and csat_at < ${to}::timestamptz`),
  );
  const assignedNow = rowsOf<{ user_id: string; n: number }>(
    await db.execute(sql`select assigned_to as user_id, count(*)::int as n from conversations where account_id = ${accountId} and status = 'assigned' group by 1`),
  );
  const rated = rowsOf<{ user_id: string; average: number }>(
    await db.execute(sql`
      select rater.user_id, avg(c.csat_score)::float8 as average
      from conversations c
      left join lateral (
        select r.user_id, r.created_at from reporting_events r
        where r.conversation_id = c.id and r.account_id = c.account_id and r.name = 'conversation_resolved' and r.created_at <= c.csat_at
        order by r.created_at desc limit 1
      ) last_close on true
      cross join lateral (
        select coalesce(case when c.closed_at <= c.csat_at and c.closed_at > last_close.created_at then null else last_close.user_id end, c.assigned_to) as user_id
      ) rater
      where c.account_id = ${accountId} and c.csat_score is not null
        and c.csat_at >= ${from}::timestamptz and c.csat_at < ${to}::timestamptz and rater.user_id is not null
      group by 1`),
  );
  return { resolution, responses, assigned, counts, assignedNow, rated };
}

const seconds = (value: unknown) => (value === null || value === undefined ? null : Math.round(Number(value) * 1000) / 1000);

async function expectReportsMatch(from: string, to: string) {
  const raw = await fromRecordedRows(from, to);
  const range = `from=${from}&to=${to}&tz=UTC`;
  const summary = (await call(summaryRoute.GET, { path: `/v1/reports/summary?${range}`, token })).body;
  const agents = (await call(agentsRoute.GET, { path: `/v1/reports/agents?${range}`, token })).body.data as {
    user: { id: string };
    assigned: number;
    csat_average: number | null;
    closed: number;
    first_response_median_s: number | null;
    resolution_median_s: number | null;
  }[];
  const resolutionTotal = raw.resolution.find((row) => Number(row.total) === 1);
  const responsesTotal = raw.responses.find((row) => Number(row.total) === 1);
  expect(summary.conversations).toEqual({
    created: raw.counts.created,
    closed: resolutionTotal?.conversations ?? 0,
    open_now: raw.counts.open_now,
    unassigned_now: raw.counts.unassigned_now,
  });
  expect(summary.csat).toMatchObject({
    responses: raw.counts.responses,
    average: raw.counts.average === null ? null : Math.round(raw.counts.average * 100) / 100,
    distribution: expect.objectContaining({ "1": raw.counts.s1, "5": raw.counts.s5 }),
  });
  expect(summary.resolution_time).toEqual({ count: resolutionTotal?.count ?? 0, median_s: seconds(resolutionTotal?.median), p90_s: seconds(resolutionTotal?.p90) });
  expect(summary.first_response).toEqual({
    count: responsesTotal?.answered ?? 0,
    unanswered: responsesTotal?.unanswered ?? 0,
    median_seconds: seconds(responsesTotal?.median),
    avg_seconds: seconds(responsesTotal?.avg),
    p90_seconds: seconds(responsesTotal?.p90),
  });
  for (const userId of team) {
    const closes = raw.resolution.find((row) => Number(row.total) === 0 && row.user_id === userId);
    const answered = raw.responses.find((row) => Number(row.total) === 0 && row.user_id === userId);
    const row = agents.find((agent) => agent.user.id === userId);
    expect(row, userId).toMatchObject({
      assigned: raw.assigned.find((a) => a.user_id === userId)?.n ?? 0,
      closed: closes?.conversations ?? 0,
      resolution_median_s: seconds(closes?.median),
      first_response_median_s: seconds(answered?.median),
    });
    const average = raw.rated.find((r) => r.user_id === userId)?.average;
    expect(row?.csat_average, userId).toBe(average === undefined ? null : Math.round(average * 100) / 100);
    const inSummary = summary.agents.find((agent: { user_id: string }) => agent.user_id === userId);
    expect(inSummary).toMatchObject({
      conversations_closed: closes?.conversations ?? 0,
      first_responses: answered?.answered ?? 0,
      assigned_now: raw.assignedNow.find((a) => a.user_id === userId)?.n ?? 0,
    });
  }

  // The same range read from the histograms alone: counts and means exact, medians and 90th
  // percentiles within a bucket; the median of an odd count in the very bucket of the exact one.
  for (const kind of ["resolution", "first_response"] as const) {
    const exact = await durationStats({ db: getDb(), kind, accountId, from, to });
    const binned = await durationStats({ db: getDb(), kind, accountId, from, to, exactUpTo: 0 });
    expect(binned.total.count).toBe(exact.total.count);
    expect(binned.total.unanswered).toBe(exact.total.unanswered);
    if (exact.total.count % 2 === 1) expect(bucketOf(binned.total.median as number)).toBe(bucketOf(exact.total.median as number));
    if (exact.total.mean !== null) expect(binned.total.mean).toBeCloseTo(exact.total.mean, 3);
    for (const [figure, p] of [
      ["median", 0.5],
      ["p90", 0.9],
    ] as const) {
      const want = exact.total[figure];
      const got = binned.total[figure];
      if (want === null) expect(got, `${kind} ${figure} (p${p})`).toBeNull();
      // Less than one bucket's width away: under 19% of the figure (or 1 s below 1 s).
      else expect(Math.abs((got as number) - want), `${kind} ${figure}: ${got} against ${want}`).toBeLessThan(Math.max(1, (2 ** 0.25 - 1) * want));
    }
  }
}

/** Ranges whose edges fall mid-day, on midnights, and one over everything. */
function ranges() {
  const random = generator(7);
  const list: [string, string][] = [
    [iso(START - DAY), iso(START + 40 * DAY)],
    [iso(START + 3 * DAY), iso(START + 10 * DAY)],
  ];
  for (let i = 0; i < 6; i++) {
    const from = START + random.int(20 * DAY);
    list.push([iso(from), iso(from + 3_600_000 + random.int(12 * DAY))]);
  }
  return list;
}

beforeAll(async () => {
  const created = await createTestAccount();
  accountId = created.account.id;
  token = created.adminToken;
  team = [created.admin.id];
  for (const name of ["Ana", "Bruno", "Carla"]) team.push((await addTestUser(accountId, "agent", name)).user.id);
});

describe("reports read from rollups", () => {
  let conversations: string[];

  it("equal the figures counted from the recorded rows on a random account", async () => {
    conversations = await seed();
    // The account holds what the rollups must get right: repeated closes and assignments,
    // unrecorded closes, unanswered first questions and satisfaction answers.
    const [shape] = rowsOf<Record<string, number>>(
      await getDb().execute(sql`
        select
          (select count(*)::int from report_close_repeats where account_id = ${accountId}) as repeats,
          (select count(*)::int from report_implicit_closes where account_id = ${accountId}) as implicit,
          (select count(*)::int from report_assignments where account_id = ${accountId} and previous_at is not null) as reassigned,
          (select count(*)::int from report_first_responses where account_id = ${accountId} and reply_at is null) as unanswered,
          (select count(*)::int from report_ratings where account_id = ${accountId}) as rated`),
    );
    for (const [figure, n] of Object.entries(shape)) expect(n, figure).toBeGreaterThan(5);
    for (const [from, to] of ranges()) await expectReportsMatch(from, to);
  }, 120_000);

  it("still equal them after reopenings, closes filed late or deleted, reassignments and replies that fail", async () => {
    const db = getDb();
    const some = (n: number, offset: number) => sql.raw(conversations.filter((_, i) => i % n === offset).map((id) => `'${id}'`).join(", "));
    // Reopened: the recorded closes stay, the unrecorded ones go.
    await db.execute(sql`update conversations set closed_at = null, status = 'open', opened_at = created_at + interval '5 days' where id in (${some(7, 1)})`);
    // Closed without a record, by a new assignee.
    await db.execute(sql`update conversations set closed_at = created_at + interval '6 days', status = 'closed', assigned_to = ${team[2]} where id in (${some(9, 2)})`);
    // A close recorded late, at exactly the time of a conversation's unrecorded close.
    await db.execute(sql`
      insert into reporting_events (id, account_id, conversation_id, name, user_id, value_s, started_at, created_at)
      select 'rpe_late_' || id, account_id, id, 'conversation_resolved', assigned_to, 3600, closed_at - interval '1 hour', closed_at
      from conversations where id in (${some(9, 2)})`);
    await db.execute(sql`delete from reporting_events where conversation_id in (${some(5, 3)}) and id like 'rpe_hist%_0'`);
    await db.execute(sql`update reporting_events set user_id = ${team[3]}, created_at = created_at + interval '1 day' where conversation_id in (${some(6, 4)})`);
    await db.execute(sql`
      insert into events (id, account_id, type, data, created_at)
      select 'evt_again_' || id, account_id, 'conversation.assigned',
        jsonb_build_object('conversation', jsonb_build_object('id', id), 'user', jsonb_build_object('id', ${team[1]}::text)), created_at + interval '2 days'
      from conversations where id in (${some(4, 0)})`);
    await db.execute(sql`update messages set status = 'failed' where conversation_id in (${some(3, 1)}) and direction = 'outbound'`);
    await db.execute(sql`delete from messages where conversation_id in (${some(8, 5)}) and id like 'msg_hist%_0'`);
    // Answers given later or changed, assignees changed, conversations taken over and deleted.
    await db.execute(sql`update conversations set csat_score = 5, csat_at = coalesce(closed_at, created_at) + interval '2 hours' where id in (${some(10, 6)})`);
    await db.execute(sql`update conversations set assigned_to = ${team[0]}, status = 'assigned' where id in (${some(11, 7)}) and closed_at is null`);
    await db.execute(sql`delete from conversations where id in (${some(13, 8)})`);
    for (const [from, to] of ranges()) await expectReportsMatch(from, to);
  }, 120_000);

  it("lets a whole account go, its rollups with it", async () => {
    const db = getDb();
    const other = await createTestAccount();
    const agent = (await addTestUser(other.account.id, "agent", "Gone Agent")).user.id;
    const gone = other.account.id;
    await db.execute(sql`insert into contacts (id, account_id, phone, name, created_at, updated_at) values ('ct_gone', ${gone}, '447700099999', 'Gone', now(), now())`);
    await db.execute(sql`
      insert into conversations (id, account_id, contact_id, status, assigned_to, closed_at, csat_score, csat_at, created_at, updated_at)
      values ('conv_gone1', ${gone}, 'ct_gone', 'closed', ${agent}, now(), 4, now(), now() - interval '1 day', now()),
             ('conv_gone2', ${gone}, 'ct_gone', 'assigned', ${agent}, null, null, null, now(), now())`);
    await db.execute(sql`
      insert into reporting_events (id, account_id, conversation_id, name, user_id, value_s, started_at, created_at)
      values ('rpe_gone1', ${gone}, 'conv_gone2', 'conversation_resolved', ${agent}, 60, now() - interval '2 hours', now() - interval '1 hour'),
             ('rpe_gone2', ${gone}, 'conv_gone2', 'conversation_resolved', ${agent}, 60, now() - interval '1 hour', now())`);
    await db.execute(sql`
      insert into events (id, account_id, type, data, created_at)
      values ('evt_gone1', ${gone}, 'conversation.assigned', ${JSON.stringify({ conversation: { id: "conv_gone2" }, user: { id: agent } })}::jsonb, now() - interval '1 hour'),
             ('evt_gone2', ${gone}, 'conversation.assigned', ${JSON.stringify({ conversation: { id: "conv_gone2" }, user: { id: agent } })}::jsonb, now())`);
    const count = async () =>
      Number(
        rowsOf<{ n: number }>(
          await db.execute(sql`select
            (select count(*) from report_duration_days where account_id = ${gone}) + (select count(*) from report_implicit_closes where account_id = ${gone})
            + (select count(*) from report_close_repeats where account_id = ${gone}) + (select count(*) from report_assignments where account_id = ${gone})
            + (select count(*) from report_assignment_days where account_id = ${gone}) + (select count(*) from report_conversation_days where account_id = ${gone})
            + (select count(*) from report_ratings where account_id = ${gone})
            + (select count(*) from report_rating_days where account_id = ${gone}) as n`),
        )[0].n,
      );
    expect(await count()).toBeGreaterThanOrEqual(8);
    await db.execute(sql`delete from accounts where id = ${gone}`);
    expect(await count()).toBe(0);
  });
});
