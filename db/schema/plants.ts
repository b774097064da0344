import { bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt } from "./columns";

export const plants = pgTable(
  "plants",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tag: text("tag"),
    createdAt: createdAt(),
  },
  (t) => [index("plants_account_id_idx").on(t.accountId, t.id)],
);

export type Plant = typeof plants.$inferSelect;
