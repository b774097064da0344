import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { assignedConversations, closedConversations, durationStats, ratings } from "./durations";
import { toAverage, toNumber, toSeconds } from "./query";
import type { AgentsReportOutput, ReportRange } from "./schemas";
import { usersWithMessagesSent } from "./store/agents";
import { inBusinessZone } from "./zone";

/**
 * Each user's figures for [from, to):
 * - assigned: conversations assigned to them in the range (by the `conversation.assigned`
 *   events, each conversation counted once);
 * - closed and resolution_median_s: conversations closed in the range while assigned to them
 *   (as recorded at the close: a later reopening or reassignment changes nothing), resolution
 *   from creation (or the latest reopening before it) to each close;
 * - messages_sent: their outbound messages in the range, except failed ones;
 * - first_response_median_s: the first responses they gave (same rule as the summary);
 * - csat_average: survey answers given in the range to the closes they had (the assignee at the
 *   close the survey followed, else the conversation's assignee).
 * Every current user is listed, and deleted users with activity in the range.
 */
export async function getAgentsReport({ ctx, range: asked }: { ctx: ServiceContext; range: ReportRange }): Promise<AgentsReportOutput> {
  const range = await inBusinessZone(ctx, asked);
  const accountId = ctx.accountId;
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const rows = await usersWithMessagesSent(ctx.db, { accountId, from, to });
  // Medians and closes per person from the per-day histograms (see durationStats).
  const responses = await durationStats({ db: ctx.db, kind: "first_response", accountId, from, to });
  const resolutions = await durationStats({ db: ctx.db, kind: "resolution", accountId, from, to });
  const closed = await closedConversations({ db: ctx.db, accountId, from, to, closes: resolutions });
  const assigned = await assignedConversations({ db: ctx.db, accountId, from, to });
  // Survey answers per agent they belong to (see report_ratings): the mean of their scores.
  const rated = new Map<string, { n: number; sum: number }>();
  for (const row of await ratings({ db: ctx.db, accountId, from, to })) {
    if (!row.user_id) continue;
    const acc = rated.get(row.user_id) ?? { n: 0, sum: 0 };
    rated.set(row.user_id, { n: acc.n + row.n, sum: acc.sum + row.score * row.n });
  }
  const figures = rows.map((row) => ({
    row,
    assigned: assigned.get(row.user_id) ?? null,
    csatAverage: rated.has(row.user_id) ? rated.get(row.user_id)!.sum / rated.get(row.user_id)!.n : null,
    closed: closed.byUser.get(row.user_id) ?? null,
    firstResponseMedian: responses.byUser.get(row.user_id)?.median ?? null,
    resolutionMedian: resolutions.byUser.get(row.user_id)?.median ?? null,
  }));
  return {
    from,
    to,
    tz: range.tz,
    // Deleted users are listed only with activity in the range.
    data: figures
      .filter(
        ({ row, assigned, closed, firstResponseMedian, csatAverage }) =>
          !row.deleted || row.messages_sent !== null || assigned !== null || closed !== null || firstResponseMedian !== null || csatAverage !== null,
      )
      .map(({ row, assigned, closed, firstResponseMedian, resolutionMedian, csatAverage }) => ({
        user: { id: row.user_id, name: row.name },
        assigned: assigned ?? 0,
        closed: closed ?? 0,
        messages_sent: toNumber(row.messages_sent),
        first_response_median_s: toSeconds(firstResponseMedian),
        resolution_median_s: toSeconds(resolutionMedian),
        csat_average: toAverage(csatAverage),
      })),
  };
}
