import type { PriceRate } from "@/db/schema";
import { callingCodeOf } from "./country";

export const pricingCategories = ["marketing", "utility", "authentication", "service"] as const;
export type PricingCategory = (typeof pricingCategories)[number];

/** The rate for a country calling code and category: the country's own row, else the `*` row; null when the table has neither. */
export function rateFor(rates: PriceRate[], { countryCode, category }: { countryCode: string | null; category: string }): number | null {
  const own = countryCode ? rates.find((r) => r.country_code === countryCode && r.category === category) : undefined;
  const fallback = rates.find((r) => r.country_code === "*" && r.category === category);
  return (own ?? fallback)?.price ?? null;
}

/** What one message of this category to this number costs by the table, or null when the table has no price for it. */
export function estimatePrice({ table, to, category }: { table: { currency: string; rates: PriceRate[] }; to: string; category: string }) {
  const countryCode = callingCodeOf(to);
  const price = rateFor(table.rates, { countryCode, category: category.toLowerCase() });
  if (price === null) return null;
  return { price, currency: table.currency, country_code: countryCode, category: category.toLowerCase() };
}

/** "0.06" for 0.0572: two decimals, more only when the price is below a cent. */
export function formatPrice(price: number): string {
  if (price === 0) return "0";
  if (price >= 0.01) return price.toFixed(2);
  return Number(price.toPrecision(2)).toString();
}

/** The template picker's line: "Marketing · ≈ 0.06 EUR". */
export function describeEstimate({ category, estimate }: { category: string; estimate: { price: number; currency: string } | null }): string {
  const label = category.charAt(0).toUpperCase() + category.slice(1).toLowerCase();
  return estimate ? `${label} · ≈ ${formatPrice(estimate.price)} ${estimate.currency}` : `${label} · no price for this country`;
}
