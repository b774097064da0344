import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "./query";

/** The account's billable outbound messages of [from, to) counted by month (in `tz`), pricing category and country. */
export async function billableMessagesByMonth(db: Executor, { accountId, from, to, tz }: { accountId: string; from: string; to: string; tz: string }) {
  return queryRows<{ month: string; category: string; country_code: string | null; messages: number | string }>(db, sql`
    select to_char(date_trunc('month', created_at at time zone ${tz}), 'YYYY-MM') as month,
           pricing->>'category' as category, pricing->>'country_code' as country_code, count(*)::int as messages
    from messages
    where account_id = ${accountId} and direction = 'outbound' and pricing is not null
      and (pricing->>'billable')::boolean and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
    group by 1, 2, 3
    order by 1`);
}
