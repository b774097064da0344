import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { toNumber } from "@/lib/reports/query";
import type { ReportRange } from "@/lib/reports/schemas";
import { inBusinessZone } from "@/lib/reports/zone";
import type { SlaReportOutput } from "./report-schemas";
import { sumSlaOutcomes } from "./store";

const ratio = (met: number, breached: number) => (met + breached === 0 ? null : met / (met + breached));

/**
 * Met and breached SLA targets recorded in [from, to), per policy and per person (the one who
 * answered in time, or the assignee at the breach or the close): counted from what was recorded
 * when it happened, so reassigning or reopening later changes nothing. Whole days are read from
 * the daily counts kept as outcomes are recorded (report_sla_days), the range's ends per outcome.
 */
export async function getSlaReport({ ctx, range: asked }: { ctx: ServiceContext; range: ReportRange }): Promise<SlaReportOutput> {
  const range = await inBusinessZone(ctx, asked);
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const { policies, agents } = await sumSlaOutcomes(ctx.db, { accountId: ctx.accountId, from, to });
  return {
    from,
    to,
    policies: policies.map((r) => ({ policy_id: r.id, name: r.name, met: toNumber(r.met), breached: toNumber(r.breached), attainment: ratio(toNumber(r.met), toNumber(r.breached)) })),
    agents: agents.map((r) => ({ user_id: r.id, name: r.name, met: toNumber(r.met), breached: toNumber(r.breached), attainment: ratio(toNumber(r.met), toNumber(r.breached)) })),
  };
}
