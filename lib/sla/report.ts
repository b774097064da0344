import "server-only";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { queryRows, toNumber } from "@/lib/reports/query";
import type { ReportRange } from "@/lib/reports/schemas";
import { inBusinessZone } from "@/lib/reports/zone";
import type { SlaReportOutput } from "./report-schemas";

const ratio = (met: number, breached: number) => (met + breached === 0 ? null : met / (met + breached));

/**
 * Met and breached SLA targets recorded in [from, to), per policy and per person (the one who
 * answered in time, or the assignee at the breach or the close): counted from what was recorded
 * when it happened, so reassigning or reopening later changes nothing.
 */
export async function getSlaReport({ ctx, range: asked }: { ctx: ServiceContext; range: ReportRange }): Promise<SlaReportOutput> {
  const range = await inBusinessZone(ctx, asked);
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const within = sql`o.account_id = ${ctx.accountId} and o.created_at >= ${from}::timestamptz and o.created_at < ${to}::timestamptz`;
  const policies = await queryRows<{ id: string; name: string | null; met: number | string; breached: number | string }>(sql`
    select o.sla_policy_id as id, p.name,
      count(*) filter (where o.outcome = 'met')::int as met,
      count(*) filter (where o.outcome = 'breached')::int as breached
    from sla_outcomes o left join sla_policies p on p.id = o.sla_policy_id
    where ${within}
    group by o.sla_policy_id, p.name
    order by p.name nulls last, o.sla_policy_id`);
  const agents = await queryRows<{ id: string | null; name: string | null; met: number | string; breached: number | string }>(sql`
    select o.user_id as id, u.name,
      count(*) filter (where o.outcome = 'met')::int as met,
      count(*) filter (where o.outcome = 'breached')::int as breached
    from sla_outcomes o left join users u on u.id = o.user_id
    where ${within}
    group by o.user_id, u.name
    order by u.name nulls last, o.user_id`);
  return {
    from,
    to,
    policies: policies.map((r) => ({ policy_id: r.id, name: r.name, met: toNumber(r.met), breached: toNumber(r.breached), attainment: ratio(toNumber(r.met), toNumber(r.breached)) })),
    agents: agents.map((r) => ({ user_id: r.id, name: r.name, met: toNumber(r.met), breached: toNumber(r.breached), attainment: ratio(toNumber(r.met), toNumber(r.breached)) })),
  };
}
