import { bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy } from "./columns";

export const plants = pgTable(
  "plants",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    tag: text("tag"),
    createdAt: createdAt(),
  },
  (t) => [index("plants_account_id_idx").on(t.accountId, t.id)],
);

export type Plant = typeof plants.$inferSelect;
