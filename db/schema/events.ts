import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy } from "./columns";

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("events_account_id_idx").on(t.accountId, t.id),
    index("events_account_created_idx").on(t.accountId, t.createdAt, t.id),
    // Who is online: the latest presence event of one user is one index lookup.
    index("events_presence_idx")
      .on(t.accountId, sql`(${t.data}->'user'->>'id')`, t.id)
      .where(sql`${t.type} in ('user.online', 'user.offline')`),
  ],
);

export type EventRow = typeof events.$inferSelect;
