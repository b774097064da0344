import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { ts } from "./columns";

// Cost before sending: each account's price table per country calling code and category.
export type PriceRate = { country_code: string; category: "marketing" | "utility" | "authentication" | "service"; price: number };
export const pricingTables = pgTable("pricing_tables", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  currency: text("currency").notNull(),
  rates: jsonb("rates").$type<PriceRate[]>().notNull(),
  updatedAt: ts("updated_at").notNull(),
});
