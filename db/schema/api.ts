import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy } from "./columns";

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    key: text("key").notNull(),
    route: text("route").notNull(),
    requestHash: text("request_hash").notNull(),
    // Who made the first request: a replay carrying a secret is answered to that user only.
    userId: text("user_id"),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.route, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
