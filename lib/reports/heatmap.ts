import "server-only";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { queryRows, toNumber } from "./query";
import { messageCounts } from "./rollups";
import { type HeatmapOutput, heatmapWeekdays, type ReportRange } from "./schemas";
import { businessTimeZone, inBusinessZone } from "./zone";

/**
 * Inbound messages of [from, to) by weekday and hour on the business's wall clock. The database
 * converts each instant with the zone's rules, so daylight saving is applied per message: across
 * a spring-forward the skipped hour stays empty, across a fall-back the repeated hour counts both.
 */
export async function getHeatmap({ ctx, range: asked }: { ctx: ServiceContext; range: ReportRange }): Promise<HeatmapOutput> {
  const range = await inBusinessZone(ctx, asked);
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const timeZone = await businessTimeZone(ctx);
  const rows = await queryRows<{ dow: number | string; hour: number | string; n: number | string }>(ctx.db, sql`
    select extract(isodow from at at time zone ${timeZone})::int as dow,
      extract(hour from at at time zone ${timeZone})::int as hour,
      sum(received)::int as n
    from ${messageCounts({ accountId: ctx.accountId, from, to })} counts
    where received <> 0
    group by 1, 2`);
  const data = heatmapWeekdays.map((weekday) => ({ weekday, hours: Array.from({ length: 24 }, () => 0) }));
  let total = 0;
  for (const row of rows) {
    const n = toNumber(row.n);
    data[toNumber(row.dow) - 1].hours[toNumber(row.hour)] += n;
    total += n;
  }
  return { from, to, tz: range.tz, time_zone: timeZone, total, data };
}
