import "server-only";
import { sql } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import { pricingCategories, rateFor } from "@/lib/pricing/estimate";
import { loadPricing } from "@/lib/pricing/pricing";
import { queryRows, toNumber } from "./query";
import type { ReportRange, SpendOutput } from "./schemas";

const round = (amount: number) => Math.round(amount * 10_000) / 10_000;

/**
 * What the network charged, by month (in `tz`) and pricing category: the outbound messages sent
 * in the range whose statuses reported them billable, each priced by the account's current table
 * for the recipient's country and the category the network reported. A message priced in a
 * category or country the table has no row for counts in `unpriced_messages`.
 */
export async function getSpend({ ctx, range }: { ctx: ServiceContext; range: ReportRange }): Promise<SpendOutput> {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const rows = await queryRows<{ month: string; category: string; country_code: string | null; messages: number | string }>(ctx.db, sql`
    select to_char(date_trunc('month', created_at at time zone ${range.tz}), 'YYYY-MM') as month,
           pricing->>'category' as category, pricing->>'country_code' as country_code, count(*)::int as messages
    from messages
    where account_id = ${ctx.accountId} and direction = 'outbound' and pricing is not null
      and (pricing->>'billable')::boolean and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
    group by 1, 2, 3
    order by 1`);
  const table = await loadPricing(ctx.db, ctx.accountId);
  const months = new Map<string, Map<string, { messages: number; amount: number }>>();
  let unpriced = 0;
  for (const row of rows) {
    const count = toNumber(row.messages);
    const rate = rateFor(table.rates, { countryCode: row.country_code, category: row.category });
    if (rate === null) {
      unpriced += count;
      continue;
    }
    const month = months.get(row.month) ?? new Map();
    months.set(row.month, month);
    const entry = month.get(row.category) ?? { messages: 0, amount: 0 };
    month.set(row.category, { messages: entry.messages + count, amount: entry.amount + rate * count });
  }
  const known = pricingCategories as readonly string[];
  const monthsOut = [...months.entries()].map(([month, categories]) => {
    const list = [...categories.entries()]
      .map(([category, value]) => ({ category, messages: value.messages, amount: round(value.amount) }))
      .sort((a, b) => (known.indexOf(a.category) + 1 || 99) - (known.indexOf(b.category) + 1 || 99));
    return { month, categories: list, total: round(list.reduce((sum, c) => sum + c.amount, 0)) };
  });
  return {
    from,
    to,
    tz: range.tz,
    currency: table.currency,
    months: monthsOut,
    total: round(monthsOut.reduce((sum, m) => sum + m.total, 0)),
    unpriced_messages: unpriced,
  };
}
