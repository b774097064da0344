import "server-only";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { closedConversations, createdConversations, durationStats, ratings } from "./durations";
import { queryRows, toAverage, toNumber, toSeconds } from "./query";
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

  const [totals] = await queryRows<Record<string, number | string | null>>(ctx.db, sql`
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

  // The account's figures and each agent's, from the per-day histograms (see durationStats).
  const responses = await durationStats({ db: ctx.db, kind: "first_response", accountId, from, to });
  const total = responses.total;
  const byUser = responses.byUser;
  const resolutions = await durationStats({ db: ctx.db, kind: "resolution", accountId, from, to });
  const closed = await closedConversations({ db: ctx.db, accountId, from, to, closes: resolutions });
  const closedBy = closed.byUser;

  const created = await createdConversations({ db: ctx.db, accountId, from, to });

  // Right now, whatever the range: the counts of open conversations per status and assignee,
  // kept by triggers with every change of status or assignee (a few rows, not a pass over the
  // account's conversations).
  const nowRows = await queryRows<{ status: string; assigned_to: string | null; n: number | string }>(ctx.db, sql`
    select status, nullif(user_id, '') as assigned_to, sum(n)::int as n
    from conversation_counts
    where account_id = ${accountId} and status in ('open', 'assigned') and n <> 0
    group by 1, 2`);
  const openCount = nowRows.reduce((sum, row) => sum + toNumber(row.n), 0);
  const unassignedNow = nowRows.filter((row) => row.status === "open").reduce((sum, row) => sum + toNumber(row.n), 0);
  const assignedNow = new Map<string, number>();
  for (const row of nowRows) {
    if (row.status === "assigned" && row.assigned_to) assignedNow.set(row.assigned_to, (assignedNow.get(row.assigned_to) ?? 0) + toNumber(row.n));
  }

  // Survey answers given in the range, whichever agent they belong to.
  const scores = new Map<number, number>();
  for (const row of await ratings({ db: ctx.db, accountId, from, to })) scores.set(row.score, (scores.get(row.score) ?? 0) + row.n);
  const answers = [...scores.values()].reduce((sum, n) => sum + n, 0);
  const scoreSum = [...scores.entries()].reduce((sum, [score, n]) => sum + score * n, 0);


  const agentRows = await queryRows<{
    user_id: string;
    name: string;
    role: "admin" | "agent";
    deleted: boolean;
    messages_sent: number | string | null;
  }>(ctx.db, sql`
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

  // Deleted users are listed only with activity in the range.
  const agents: AgentReport[] = agentRows
    .filter((row) => !row.deleted || row.messages_sent !== null || closedBy.has(row.user_id))
    .map((row) => {
      const responses = row.user_id ? byUser.get(row.user_id) : undefined;
      return {
        user_id: row.user_id,
        name: row.name,
        role: row.role,
        deleted: Boolean(row.deleted),
        messages_sent: toNumber(row.messages_sent),
        conversations_closed: closedBy.get(row.user_id) ?? 0,
        assigned_now: assignedNow.get(row.user_id) ?? 0,
        first_responses: responses?.count ?? 0,
        median_first_response_seconds: toSeconds(responses?.median),
        avg_first_response_seconds: toSeconds(responses?.mean),
      };
    });
  // Busiest first; equal ones keep the order in which they joined.
  agents.sort((a, b) => b.messages_sent - a.messages_sent || b.first_responses - a.first_responses);

  return {
    from,
    to,
    tz: range.tz,
    conversations: {
      created,
      closed: closed.total,
      open_now: openCount,
      unassigned_now: unassignedNow,
    },
    messages: {
      received: toNumber(totals?.received),
      sent: toNumber(totals?.sent),
      sent_by_agents: toNumber(totals?.sent_by_agents),
      automated: toNumber(totals?.automated),
      failed: toNumber(totals?.failed),
    },
    first_response: {
      count: total.count,
      unanswered: total.unanswered,
      median_seconds: toSeconds(total.median),
      avg_seconds: toSeconds(total.mean),
      p90_seconds: toSeconds(total.p90),
    },
    resolution_time: { count: resolutions.total.count, median_s: toSeconds(resolutions.total.median), p90_s: toSeconds(resolutions.total.p90) },
    csat: {
      responses: answers,
      average: answers ? toAverage(scoreSum / answers) : null,
      distribution: { "1": scores.get(1) ?? 0, "2": scores.get(2) ?? 0, "3": scores.get(3) ?? 0, "4": scores.get(4) ?? 0, "5": scores.get(5) ?? 0 },
    },
    agents,
  };
}
