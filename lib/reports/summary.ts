import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { closedConversations, createdConversations, durationStats, ratings } from "./durations";
import { toAverage, toNumber, toSeconds } from "./query";
import type { AgentReport, ReportRange, SummaryOutput } from "./schemas";
import { messageTotals, openConversationCounts, usersWithMessagesSentAndRole } from "./store/summary";
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

  const totals = await messageTotals(ctx.db, { accountId, from, to });

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
  const nowRows = await openConversationCounts(ctx.db, accountId);
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


  const agentRows = await usersWithMessagesSentAndRole(ctx.db, { accountId, from, to });

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
