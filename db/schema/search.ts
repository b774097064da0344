import { index, pgTable, text } from "drizzle-orm/pg-core";
import { ts, tsvector } from "./columns";
import { messages } from "./messages";

// Search's narrow copy of each searchable message (kept by triggers on messages in the
// transaction of the change; a deleted message has none): its words and the UTC hour, day,
// month and year it was written in, both in one GIN index, so the newest matches of a common
// word are found without reading every match.
export const messageSearch = pgTable(
  "message_search",
  {
    messageId: text("message_id")
      .primaryKey()
      .references(() => messages.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    createdAt: ts("created_at").notNull(),
    words: tsvector("words").notNull(),
    periods: tsvector("periods").notNull(),
  },
  (t) => [index("message_search_words_periods_idx").using("gin", t.words, t.periods)],
);
