import "server-only";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { toNumber } from "@/lib/reports/query";
import { queryRows } from "@/lib/reports/store/query";
import { slaOutcomeCounts } from "@/lib/reports/store/rollups";
import type { ReportRange } from "@/lib/reports/schemas";
import { inBusinessZone } from "@/lib/reports/zone";
import type { SlaReportOutput } from "./report-schemas";

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
  const counts = slaOutcomeCounts({ accountId: ctx.accountId, from, to });
  const policies = await queryRows<{ id: string; name: string | null; met: number | string; breached: number | string }>(ctx.db, sql`
    select o.sla_policy_id as id, p.name, sum(o.met)::int as met, sum(o.breached)::int as breached
    from ${counts} o left join sla_policies p on p.id = o.sla_policy_id
    group by o.sla_policy_id, p.name
    having sum(o.met) + sum(o.breached) > 0
    order by p.name nulls last, o.sla_policy_id`);
  const agents = await queryRows<{ id: string | null; name: string | null; met: number | string; breached: number | string }>(ctx.db, sql`
    select o.user_id as id, u.name, sum(o.met)::int as met, sum(o.breached)::int as breached
    from ${counts} o left join users u on u.id = o.user_id
    group by o.user_id, u.name
    having sum(o.met) + sum(o.breached) > 0
    order by u.name nulls last, o.user_id`);
  return {
    from,
    to,
    policies: policies.map((r) => ({ policy_id: r.id, name: r.name, met: toNumber(r.met), breached: toNumber(r.breached), attainment: ratio(toNumber(r.met), toNumber(r.breached)) })),
    agents: agents.map((r) => ({ user_id: r.id, name: r.name, met: toNumber(r.met), breached: toNumber(r.breached), attainment: ratio(toNumber(r.met), toNumber(r.breached)) })),
  };
}
