import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { pricingCategories, rateFor } from "@/lib/pricing/estimate";
import { loadPricing } from "@/lib/pricing/pricing";
import { toNumber } from "./query";
import type { ReportRange, SpendOutput } from "./schemas";
import { billableMessagesByMonth } from "./store/spend";

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
  const rows = await billableMessagesByMonth(ctx.db, { accountId: ctx.accountId, from, to, tz: range.tz });
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
