import { boolean, pgTable, primaryKey, real, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy, updatedAt } from "./columns";
import { conversations } from "./conversations";

// Answers that help: passages an agent marked "not helpful", and the answer assistant's settings.

export const suggestionDismissals = pgTable(
  "suggestion_dismissals",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: ownedBy("conversation_id", () => conversations.id),
    // sha256 of the passage text: the choice survives the passages being indexed again.
    textHash: text("text_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.textHash] })],
);

export const assistantSettings = pgTable("assistant_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  answerOutsideHours: boolean("answer_outside_hours").notNull().default(false),
  minScore: real("min_score").notNull().default(0.1),
  updatedAt: updatedAt(),
});
