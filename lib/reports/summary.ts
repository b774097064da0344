import "server-only";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { firstResponses } from "./first-responses";
import { queryRows, resolutions, toAverage, toNumber, toSeconds } from "./query";
import { agentMessageCounts, messageCounts } from "./rollups";
import type { AgentReport, ReportRange, SummaryOutput } from "./schemas";
import { inBusinessZone } from "./zone";

/**
 * The numbers of the reports page for [from, to):
 * - conversations: `created` and `closed` (conversations with a close in the range, as recorded
 *   when it happened: a conversation reopened since keeps it); `open_now` (open or
 *   assigned) and `unassigned_now` (open) right now, whatever the range.
 * - messages in the range: `received` (inbound), `sent` (every outbound: agents, API and
 *   automation), `sent_by_agents`, `automated`, and `failed` (outbound that the network refused).
 * - first_response: per conversation whose first inbound message is in the range, the time from that
 *   message to the first human reply that reached the network (median, mean, 90th percentile by
 *   linear interpolation).
 * - resolution_time: every close in the range, from creation (or the latest reopening before it)
 *   to the close (median, 90th percentile).
 * - csat: survey answers given in the range (count, mean to 2 decimals, count per score).
 * - agents: every user of the account (and deleted ones with activity in the range), with their
 *   messages sent, conversations closed in the range while assigned to them (then), conversations assigned to them now,
 *   and the first responses they gave.
 */
export async function getSummary({ ctx, range: asked }: { ctx: ServiceContext; range: ReportRange }): Promise<SummaryOutput> {
  const range = await inBusinessZone(ctx, asked);
  const accountId = ctx.accountId;
  const from = range.from.toISOString();
  const to = range.to.toISOString();

  const [totals] = await queryRows<Record<string, number | string | null>>(sql`
    select
      (select count(*) from conversations where account_id = ${accountId}
        and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz)::int as created,
      (with ${resolutions({ accountId, from, to })} select count(distinct conversation_id) from resolutions)::int as closed,
      (select count(*) from conversations where account_id = ${accountId} and status in ('open', 'assigned'))::int as open_now,
      (select count(*) from conversations where account_id = ${accountId} and status = 'open')::int as unassigned_now,
      m.received, m.sent, m.sent_by_agents, m.automated, m.failed
    from (
      select
        coalesce(sum(received), 0)::int as received,
        coalesce(sum(sent), 0)::int as sent,
        coalesce(sum(sent_by_agents), 0)::int as sent_by_agents,
        coalesce(sum(automated), 0)::int as automated,
        coalesce(sum(failed), 0)::int as failed
      from ${messageCounts({ accountId, from, to })} counts
    ) m`);

  // One pass over the responses gives the account's figures (the empty grouping set) and each agent's.
  const responseRows = await queryRows<{
    user_id: string | null;
    is_total: number;
    answered: number | string;
    unanswered: number | string;
    median: number | null;
    avg: number | null;
    p90: number | null;
  }>(sql`
    with ${firstResponses({ accountId, from, to })}
    select user_id, grouping(user_id)::int as is_total,
      count(seconds)::int as answered,
      (count(*) - count(seconds))::int as unanswered,
      percentile_cont(0.5) within group (order by seconds) as median,
      avg(seconds) as avg,
      percentile_cont(0.9) within group (order by seconds) as p90
    from responses
    group by grouping sets ((), (user_id))`);
  const total = responseRows.find((row) => toNumber(row.is_total) === 1);
  const byUser = new Map(responseRows.filter((row) => toNumber(row.is_total) === 0 && row.user_id).map((row) => [row.user_id as string, row]));

  const [resolution] = await queryRows<{ count: number | string; median: number | null; p90: number | null }>(sql`
    with ${resolutions({ accountId, from, to })}
    select count(*)::int as count,
      percentile_cont(0.5) within group (order by seconds) as median,
      percentile_cont(0.9) within group (order by seconds) as p90
    from resolutions`);

  const [csat] = await queryRows<Record<string, number | string | null>>(sql`
    select count(*)::int as responses, avg(csat_score)::float8 as average,
      count(*) filter (where csat_score = 1)::int as s1, count(*) filter (where csat_score = 2)::int as s2,
      count(*) filter (where csat_score = 3)::int as s3, count(*) filter (where csat_score = 4)::int as s4,
      count(*) filter (where csat_score = 5)::int as s5
    from conversations
    where account_id = ${accountId} and csat_score is not null
      and csat_at >= ${from}::timestamptz and csat_at < ${to}::timestamptz`);

  const agentRows = await queryRows<{
    user_id: string;
    name: string;
    role: "admin" | "agent";
    deleted: boolean;
    messages_sent: number | string;
    conversations_closed: number | string;
    assigned_now: number | string;
  }>(sql`
    -- Each figure per user is computed once (materialized) and then joined to the users.
    with sent as materialized (
      select user_id, sum(sent)::int as n
      from ${agentMessageCounts({ accountId, from, to })} counts
      group by 1
      having sum(sent) > 0
    ),
    ${resolutions({ accountId, from, to })},
    closed as materialized (
      select user_id, count(distinct conversation_id)::int as n
      from resolutions
      where user_id is not null
      group by 1
    ),
    assigned as materialized (
      select assigned_to as user_id, count(*)::int as n
      from conversations
      where account_id = ${accountId} and status = 'assigned' and assigned_to is not null
      group by 1
    )
    select u.id as user_id, u.name, u.role, (u.deleted_at is not null) as deleted,
      coalesce(sent.n, 0) as messages_sent, coalesce(closed.n, 0) as conversations_closed, coalesce(assigned.n, 0) as assigned_now
    from users u
    left join sent on sent.user_id = u.id
    left join closed on closed.user_id = u.id
    left join assigned on assigned.user_id = u.id
    where u.account_id = ${accountId}
      and (u.deleted_at is null or sent.n is not null or closed.n is not null)
    order by u.created_at, u.id`);

  const agents: AgentReport[] = agentRows.map((row) => {
    const responses = byUser.get(row.user_id);
    return {
      user_id: row.user_id,
      name: row.name,
      role: row.role,
      deleted: Boolean(row.deleted),
      messages_sent: toNumber(row.messages_sent),
      conversations_closed: toNumber(row.conversations_closed),
      assigned_now: toNumber(row.assigned_now),
      first_responses: toNumber(responses?.answered),
      median_first_response_seconds: toSeconds(responses?.median),
      avg_first_response_seconds: toSeconds(responses?.avg),
    };
  });
  // Busiest first; equal ones keep the order in which they joined.
  agents.sort((a, b) => b.messages_sent - a.messages_sent || b.first_responses - a.first_responses);

  return {
    from,
    to,
    tz: range.tz,
    conversations: {
      created: toNumber(totals?.created),
      closed: toNumber(totals?.closed),
      open_now: toNumber(totals?.open_now),
      unassigned_now: toNumber(totals?.unassigned_now),
    },
    messages: {
      received: toNumber(totals?.received),
      sent: toNumber(totals?.sent),
      sent_by_agents: toNumber(totals?.sent_by_agents),
      automated: toNumber(totals?.automated),
      failed: toNumber(totals?.failed),
    },
    first_response: {
      count: toNumber(total?.answered),
      unanswered: toNumber(total?.unanswered),
      median_seconds: toSeconds(total?.median),
      avg_seconds: toSeconds(total?.avg),
      p90_seconds: toSeconds(total?.p90),
    },
    resolution_time: { count: toNumber(resolution?.count), median_s: toSeconds(resolution?.median), p90_s: toSeconds(resolution?.p90) },
    csat: {
      responses: toNumber(csat?.responses),
      average: toAverage(csat?.average),
      distribution: { "1": toNumber(csat?.s1), "2": toNumber(csat?.s2), "3": toNumber(csat?.s3), "4": toNumber(csat?.s4), "5": toNumber(csat?.s5) },
    },
    agents,
  };
}
