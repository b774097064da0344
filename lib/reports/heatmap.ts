import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { toNumber } from "./query";
import { type HeatmapOutput, heatmapWeekdays, type ReportRange } from "./schemas";
import { inboundByWeekdayHour } from "./store/heatmap";
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
  const rows = await inboundByWeekdayHour(ctx.db, { accountId: ctx.accountId, from, to, timeZone });
  const data = heatmapWeekdays.map((weekday) => ({ weekday, hours: Array.from({ length: 24 }, () => 0) }));
  let total = 0;
  for (const row of rows) {
    const n = toNumber(row.n);
    data[toNumber(row.dow) - 1].hours[toNumber(row.hour)] += n;
    total += n;
  }
  return { from, to, tz: range.tz, time_zone: timeZone, total, data };
}
