import { sql } from "drizzle-orm";
import { GET as listConversations } from "@/app/v1/conversations/route";
import { getDb, rowsOf } from "@/db";
import { encodeCursor, listScopeOf, withListScope } from "@/lib/platform/cursor";
import { type Bench, type BenchOptions, createBenchAccount, log, openBenchDatabase, percentile, round, timeRequest } from "./support";

const LIMIT = 50;
const GOAL = 1.3;

/**
 * GET /v1/conversations stays flat as data grows: page 1 against the page 2,000 pages deep
 * (row 100,001 onwards) of 200,000 conversations, through the real route handler.
 */
export const conversationsBench: Bench = {
  name: "conversations-list-deep-page",
  description: "GET /v1/conversations page 1 vs 2,000 pages deep over 200,000 conversations",
  async run({ smoke }: BenchOptions) {
    const ROWS = smoke ? 2_000 : 200_000;
    const DEEP_PAGES = smoke ? 20 : 2_000;
    const WARMUP = smoke ? 3 : 30;
    const SAMPLES = smoke ? 10 : 300;
    await openBenchDatabase();
    const { account, user, token } = await createBenchAccount();
    const db = getDb();

    log(`seeding ${ROWS.toLocaleString("en-US")} contacts and conversations…`);
    const seedStarted = performance.now();
    const t0 = new Date(Date.now() - ROWS * 1000).toISOString();
    await db.execute(sql`
      insert into contacts (id, account_id, phone, name, created_at, updated_at)
      select 'ctc_bench' || lpad(i::text, 17, '0'), ${account.id}, (447700000000 + i)::text, 'Customer ' || i,
             ${t0}::timestamptz + i * interval '1 second', ${t0}::timestamptz + i * interval '1 second'
      from generate_series(1, ${ROWS}) as i`);
    await db.execute(sql`
      insert into conversations (id, account_id, contact_id, status, assigned_to, assigned_at, last_message_at,
                                 last_message_preview, unread_count, created_at, updated_at, closed_at)
      select 'conv_bench' || lpad(i::text, 16, '0'), ${account.id}, 'ctc_bench' || lpad(i::text, 17, '0'),
             (array['open', 'assigned', 'closed'])[1 + i % 3],
             case when i % 3 = 1 then ${user.id} end,
             case when i % 3 = 1 then ${t0}::timestamptz + i * interval '1 second' end,
             ${t0}::timestamptz + i * interval '1 second' + interval '5 minutes',
             'Message number ' || i, i % 4,
             ${t0}::timestamptz + i * interval '1 second', ${t0}::timestamptz + i * interval '1 second',
             case when i % 3 = 2 then ${t0}::timestamptz + i * interval '1 second' + interval '1 hour' end
      from generate_series(1, ${ROWS}) as i`);
    await db.execute(sql`analyze contacts`);
    await db.execute(sql`analyze conversations`);
    log(`seeded in ${round((performance.now() - seedStarted) / 1000, 1)} s`);

    // The cursor a client holds after reading 2,000 pages: the last row of page 2,000.
    const deepOffset = DEEP_PAGES * LIMIT - 1;
    const result = await db.execute(sql`
      select created_at, id from conversations where account_id = ${account.id}
      order by created_at desc, id desc offset ${deepOffset} limit 1`);
    const [row] = rowsOf<{ created_at: string | Date; id: string }>(result);
    const page1Url = `http://localhost/v1/conversations?limit=${LIMIT}`;
    // A cursor is bound to the list it was handed out for: this one is of the unfiltered list.
    const cursor = withListScope(listScopeOf(new URL(page1Url)), () => encodeCursor({ t: new Date(row.created_at), id: row.id }));

    const deepUrl = `${page1Url}&cursor=${encodeURIComponent(cursor)}`;
    const check = await listConversations(new Request(deepUrl, { headers: { authorization: `Bearer ${token}` } }), { params: Promise.resolve({}) });
    const deepPage = (await check.json()) as { data: { id: string }[] };
    if (deepPage.data.length !== LIMIT) throw new Error(`the deep page has ${deepPage.data.length} rows, expected ${LIMIT}`);

    log(`warming up, then ${SAMPLES} requests each, interleaved…`);
    for (let i = 0; i < WARMUP; i++) {
      await timeRequest(listConversations, page1Url, token);
      await timeRequest(listConversations, deepUrl, token);
    }
    const page1: number[] = [];
    const deep: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      page1.push(await timeRequest(listConversations, page1Url, token));
      deep.push(await timeRequest(listConversations, deepUrl, token));
    }
    const page1P50 = percentile(page1, 50);
    const deepP50 = percentile(deep, 50);
    const ratio = deepP50 / page1P50;
    return {
      name: this.name,
      rows: ROWS,
      page1_ms_p50: round(page1P50),
      deep_ms_p50: round(deepP50),
      ratio: round(ratio),
      goal: GOAL,
      pass: ratio <= GOAL,
      limit: LIMIT,
      deep_page: DEEP_PAGES + 1,
      samples: SAMPLES,
      page1_ms_p95: round(percentile(page1, 95)),
      deep_ms_p95: round(percentile(deep, 95)),
    };
  },
};
