import { sql } from "drizzle-orm";
import { GET as inboxCounts } from "@/app/api/inbox/counts/route";
import { GET as inboxList } from "@/app/api/inbox/conversations/route";
import { getDb } from "@/db";
import { type Bench, type BenchOptions, createBenchAccount, log, openBenchDatabase, percentile, round, timeRequest } from "./support";

/**
 * Contacts and conversations of a big account, generated in SQL: a third open, a third assigned
 * (to the bench's user and nine teammates), a third closed; one in ten with unread messages,
 * a few snoozed, activity spread over the last `days` days.
 */
export async function seedConversations({ accountId, userIds, count, days }: { accountId: string; userIds: string[]; count: number; days: number }) {
  const db = getDb();
  const now = new Date().toISOString();
  const span = days * 86_400;
  await db.execute(sql`
    insert into contacts (id, account_id, phone, name, created_at, updated_at)
    select 'ctc_scale' || lpad(i::text, 17, '0'), ${accountId}, (447700000000 + i)::text, 'Customer ' || i,
           ${now}::timestamptz - ((i * 7919) % ${span}) * interval '1 second', ${now}::timestamptz
    from generate_series(1, ${count}) as i`);
  await db.execute(sql`
    insert into conversations (id, account_id, contact_id, status, assigned_to, assigned_at, last_message_at,
                               last_message_preview, unread_count, created_at, updated_at, closed_at, snoozed_until)
    select 'conv_scale' || lpad(i::text, 16, '0'), ${accountId}, 'ctc_scale' || lpad(i::text, 17, '0'),
           case when i % 97 = 0 then 'snoozed' else (array['open', 'assigned', 'closed'])[1 + i % 3] end,
           case when i % 3 = 1 then (string_to_array(${userIds.join(",")}, ','))[1 + (i / 3) % ${userIds.length}] end,
           case when i % 3 = 1 then c.created_at end,
           c.created_at + interval '10 minutes', 'Message number ' || i,
           case when i % 10 = 0 then 1 + i % 4 else 0 end,
           c.created_at, c.created_at,
           case when i % 3 = 2 and i % 97 <> 0 then c.created_at + interval '2 hours' end,
           case when i % 97 = 0 then ${now}::timestamptz + interval '1 day' end
    from generate_series(1, ${count}) as i,
         lateral (select ${now}::timestamptz - ((i * 7919) % ${span}) * interval '1 second' as created_at) c`);
}

/** The bench user's teammates (agents), so that assignments and reports spread over a team. */
export async function seedTeammates({ accountId, count }: { accountId: string; count: number }): Promise<string[]> {
  await getDb().execute(sql`
    insert into users (id, account_id, email, name, role, password_hash, created_at, updated_at)
    select 'usr_scale' || lpad(i::text, 17, '0'), ${accountId}, 'agent' || i || '@example.com', 'Agent ' || i, 'agent',
           'not-a-password-hash', now(), now()
    from generate_series(1, ${count}) as i`);
  return Array.from({ length: count }, (_, i) => `usr_scale${String(i + 1).padStart(17, "0")}`);
}

const GOAL_INBOX_P95_MS = 100;

/**
 * What the inbox asks for when it opens: the first page of the list and the filter-tab counts,
 * both through their real route handlers, over 20,000 conversations. Goal: p95 < 100 ms for
 * the pair (the two answers the list needs before it shows anything meaningful).
 */
export const inboxList20kBench: Bench = {
  name: "inbox-list-20k",
  description: "inbox first page + filter counts p95 over 20,000 conversations (server)",
  async run({ smoke }: BenchOptions) {
    const size = smoke ? { conversations: 500, warmup: 3, samples: 20 } : { conversations: 20_000, warmup: 20, samples: 200 };
    await openBenchDatabase();
    const { account, user, token } = await createBenchAccount();
    const teammates = await seedTeammates({ accountId: account.id, count: 9 });
    log(`seeding ${size.conversations.toLocaleString("en-US")} conversations…`);
    const started = performance.now();
    await seedConversations({ accountId: account.id, userIds: [user.id, ...teammates], count: size.conversations, days: 90 });
    await getDb().execute(sql`
      insert into notifications (id, account_id, user_id, conversation_id, type, created_at)
      select 'ntf_scale' || lpad(i::text, 16, '0'), ${account.id}, ${user.id}, 'conv_scale' || lpad((i * 37)::text, 16, '0'), 'mention', now()
      from generate_series(1, ${Math.floor(size.conversations / 200)}) as i`);
    await getDb().execute(sql`analyze`);
    log(`seeded in ${round((performance.now() - started) / 1000, 1)} s`);

    const filters = ["all", "mine", "unassigned", "closed"];
    const listUrl = (filter: string) => `http://localhost/api/inbox/conversations?filter=${filter}&limit=30`;
    const countsUrl = "http://localhost/api/inbox/counts";
    const open = async (filter: string) => {
      const t0 = performance.now();
      await Promise.all([timeRequest(inboxList, listUrl(filter), token), timeRequest(inboxCounts, countsUrl, token)]);
      return performance.now() - t0;
    };
    for (let i = 0; i < size.warmup; i++) await open(filters[i % filters.length]);
    const samples: number[] = [];
    const byFilter: Record<string, number[]> = {};
    for (let i = 0; i < size.samples; i++) {
      const filter = filters[i % filters.length];
      const ms = await open(filter);
      samples.push(ms);
      (byFilter[filter] ??= []).push(ms);
    }
    const p95 = percentile(samples, 95);
    return {
      name: this.name,
      conversations: size.conversations,
      samples: samples.length,
      p50_ms: round(percentile(samples, 50)),
      p95_ms: round(p95),
      p95_by_filter_ms: Object.fromEntries(Object.entries(byFilter).map(([f, s]) => [f, round(percentile(s, 95))])),
      goal: `p95 < ${GOAL_INBOX_P95_MS} ms`,
      pass: p95 < GOAL_INBOX_P95_MS,
    };
  },
};
