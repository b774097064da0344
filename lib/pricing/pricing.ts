import type { Executor } from "@/db";
import type { PriceRate } from "@/db/schema";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { invalidField } from "@/lib/platform/errors";
import { callingCodeOf } from "./country";
import { DEFAULT_CURRENCY, DEFAULT_RATES } from "./default-table";
import { describeEstimate, estimatePrice, type PricingCategory, pricingCategories } from "./estimate";
import { MAX_RATES, type PricingInput, type PricingOutput, priceRate } from "./schemas";
import { findPricingTable, upsertPricingTable } from "./store";

const order = (a: PriceRate, b: PriceRate) =>
  (a.country_code === "*" ? -1 : b.country_code === "*" ? 1 : Number(a.country_code) - Number(b.country_code)) ||
  pricingCategories.indexOf(a.category) - pricingCategories.indexOf(b.category);

/** The account's price table, or the default one. */
export async function loadPricing(db: Executor, accountId: string): Promise<PricingOutput> {
  const row = await findPricingTable(db, accountId);
  if (!row) return { currency: DEFAULT_CURRENCY, rates: DEFAULT_RATES, source: "default" };
  return { currency: row.currency, rates: row.rates, source: "custom", updated_at: row.updatedAt.toISOString() };
}

export const getPricing = ({ ctx }: { ctx: ServiceContext }) => loadPricing(ctx.db, ctx.accountId);

/** One CSV line's cells: commas separate, a cell may be wrapped in double quotes (`""` is a quote). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted && char === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === "," && !quoted) {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += char;
    }
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * The rates of a CSV table: a header `country_code,category,price` (in any order, other
 * columns ignored), then one rate per line; blank lines are skipped. The first bad line is a
 * 400 naming its line number and what is wrong with it.
 */
function parsePricingCsv(csv: string): PriceRate[] {
  const lines = csv.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const header = cellsOf(lines[0] ?? "").map((cell) => cell.toLowerCase());
  const column = (name: string) => header.indexOf(name);
  const missing = ["country_code", "category", "price"].filter((name) => column(name) < 0);
  if (missing.length > 0) throw invalidField("csv", `line 1 must be the header country_code,category,price (missing ${missing.join(", ")})`);
  const rates: PriceRate[] = [];
  for (let index = 1; index < lines.length; index++) {
    if (!lines[index].trim()) continue;
    const cells = cellsOf(lines[index]);
    const price = cells[column("price")] ?? "";
    const parsed = priceRate.safeParse({
      country_code: (cells[column("country_code")] ?? "").replace(/^\+/, ""),
      category: (cells[column("category")] ?? "").toLowerCase(),
      price: /^\d+(\.\d+)?$/.test(price) ? Number(price) : price,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw invalidField("csv", `line ${index + 1}: ${String(issue.path[0] ?? "value")} ${issue.message} (got "${lines[index].slice(0, 80)}")`);
    }
    rates.push(parsed.data);
    if (rates.length > MAX_RATES) throw invalidField("csv", `holds more than ${MAX_RATES} rates`);
  }
  if (rates.length === 0) throw invalidField("csv", "holds no rate after its header line");
  return rates;
}

/** Replaces the account's price table (audited). Two rates for the same country and category are a 400 naming the second. */
export async function updatePricing({ ctx, input }: { ctx: ServiceContext; input: PricingInput }): Promise<PricingOutput> {
  const fromCsv = input.csv !== undefined;
  const rates = fromCsv ? parsePricingCsv(input.csv!) : input.rates!;
  const seen = new Set<string>();
  rates.forEach((rate, index) => {
    const key = `${rate.country_code}:${rate.category}`;
    if (seen.has(key)) {
      throw invalidField(fromCsv ? "csv" : `rates.${index}`, `${fromCsv ? "a line" : "this rate"} repeats ${rate.country_code} ${rate.category}: each country and category has one price`);
    }
    seen.add(key);
  });
  const values = { currency: input.currency, rates: [...rates].sort(order), updatedAt: new Date() };
  await ctx.db.transaction(async (tx) => {
    await upsertPricingTable(tx, ctx.accountId, values);
    await auditChange(ctx, "settings.pricing_updated", { type: "account", id: ctx.accountId }, tx);
  });
  return { currency: values.currency, rates: values.rates, source: "custom", updated_at: values.updatedAt.toISOString() };
}

/** What one message of a category to a number costs by the account's table. */
export async function estimateMessage({ ctx, to, category }: { ctx: ServiceContext; to: string; category: PricingCategory }) {
  const table = await loadPricing(ctx.db, ctx.accountId);
  const estimate = estimatePrice({ table, to: to.replace(/^\+/, ""), category });
  return {
    category,
    country_code: callingCodeOf(to.replace(/^\+/, "")),
    price: estimate?.price ?? null,
    currency: table.currency,
    label: describeEstimate({ category, estimate }),
  };
}
