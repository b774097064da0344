import type { PriceRate } from "@/db/schema";

/**
 * The price table an account starts with: per-message prices in EUR, rounded from the network's
 * published rate card for the most common markets, `*` for every other country. Estimates only:
 * an admin replaces it with the business's own rate card (Settings → Templates → Prices, or
 * `PUT /v1/config/pricing`). Service messages (answers inside the 24-hour window) are free.
 */
export const DEFAULT_CURRENCY = "EUR";

const rows: [string, number, number, number][] = [
  // country calling code, marketing, utility, authentication
  ["*", 0.056, 0.0072, 0.023],
  ["1", 0.0233, 0.0037, 0.0126],
  ["31", 0.1485, 0.0465, 0.067],
  ["33", 0.0799, 0.0279, 0.064],
  ["34", 0.0572, 0.0186, 0.0309],
  ["39", 0.0643, 0.0279, 0.0349],
  ["44", 0.0492, 0.0205, 0.0333],
  ["49", 0.127, 0.0512, 0.0714],
  ["52", 0.0284, 0.0079, 0.0222],
  ["54", 0.0575, 0.0242, 0.034],
  ["55", 0.0581, 0.0063, 0.0063],
  ["57", 0.0116, 0.0006, 0.0007],
  ["62", 0.0383, 0.0186, 0.0279],
  ["91", 0.01, 0.0013, 0.0013],
];

export const DEFAULT_RATES: PriceRate[] = rows.flatMap(([country_code, marketing, utility, authentication]) => [
  { country_code, category: "marketing", price: marketing },
  { country_code, category: "utility", price: utility },
  { country_code, category: "authentication", price: authentication },
  { country_code, category: "service", price: 0 },
]);
