import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "./query";
import { agentMessageCounts, messageCounts } from "./rollups";

type Range = { accountId: string; from: string; to: string };

/** The account's messages of [from, to): received, sent, sent by agents, automated and failed. */
export async function messageTotals(db: Executor, { accountId, from, to }: Range) {
  const [totals] = await queryRows<Record<string, number | string | null>>(db, sql`
    select m.received, m.sent, m.sent_by_agents, m.automated, m.failed
    from (
      select
        coalesce(sum(received), 0)::int as received,
        coalesce(sum(sent), 0)::int as sent,
        coalesce(sum(sent_by_agents), 0)::int as sent_by_agents,
        coalesce(sum(automated), 0)::int as automated,
        coalesce(sum(failed), 0)::int as failed
      from ${messageCounts({ accountId, from, to })} counts
    ) m`);
  return totals;
}

/**
 * The account's open conversations right now per status (`open`, `assigned`) and assignee, from
 * the counts triggers keep with every change of status or assignee.
 */
export async function openConversationCounts(db: Executor, accountId: string) {
  return queryRows<{ status: string; assigned_to: string | null; n: number | string }>(db, sql`
    select status, nullif(user_id, '') as assigned_to, sum(n)::int as n
    from conversation_counts
    where account_id = ${accountId} and status in ('open', 'assigned') and n <> 0
    group by 1, 2`);
}

/** Every user of the account, oldest first, with their role and their outbound messages of [from, to) (null for none). */
export async function usersWithMessagesSentAndRole(db: Executor, { accountId, from, to }: Range) {
  return queryRows<{
    user_id: string;
    name: string;
    role: "admin" | "agent";
    deleted: boolean;
    messages_sent: number | string | null;
  }>(db, sql`
    with sent as materialized (
      select user_id, sum(sent)::int as n
      from ${agentMessageCounts({ accountId, from, to })} counts
      group by 1
      having sum(sent) > 0
    )
    select u.id as user_id, u.name, u.role, (u.deleted_at is not null) as deleted, sent.n as messages_sent
    from users u
    left join sent on sent.user_id = u.id
    where u.account_id = ${accountId}
    order by u.created_at, u.id`);
}
