import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "./query";
import { messageCounts } from "./rollups";

/** The account's inbound messages of [from, to) counted by ISO weekday and hour on the zone's wall clock. */
export async function inboundByWeekdayHour(db: Executor, { accountId, from, to, timeZone }: { accountId: string; from: string; to: string; timeZone: string }) {
  return queryRows<{ dow: number | string; hour: number | string; n: number | string }>(db, sql`
    select extract(isodow from at at time zone ${timeZone})::int as dow,
      extract(hour from at at time zone ${timeZone})::int as hour,
      sum(received)::int as n
    from ${messageCounts({ accountId, from, to })} counts
    where received <> 0
    group by 1, 2`);
}
