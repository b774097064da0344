import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "./query";
import { agentMessageCounts } from "./rollups";

/** Every user of the account, oldest first, with their outbound messages of [from, to) that did not fail (null for none). */
export async function usersWithMessagesSent(db: Executor, { accountId, from, to }: { accountId: string; from: string; to: string }) {
  return queryRows<{
    user_id: string;
    name: string;
    deleted: boolean;
    messages_sent: number | string | null;
  }>(db, sql`
    -- Each figure per user is computed once (materialized) and then joined to the users, never
    -- again for each user the plan loops over.
    with sent as materialized (
      select user_id, sum(sent_ok)::int as n
      from ${agentMessageCounts({ accountId, from, to })} counts
      group by 1
      having sum(sent_ok) > 0
    )
    select u.id as user_id, u.name, (u.deleted_at is not null) as deleted,
      sent.n as messages_sent
    from users u
    left join sent on sent.user_id = u.id
    where u.account_id = ${accountId}
    order by u.created_at, u.id`);
}
