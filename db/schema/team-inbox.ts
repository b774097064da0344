import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";
import { conversations } from "./conversations";

// Team inbox: internal notes and mentions, notifications, the activity trail, canned replies
// and the inbox settings of an account.

export const conversationNotes = pgTable(
  "conversation_notes",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: ownedBy("conversation_id", () => conversations.id),
    // Users are soft-deleted, so a note keeps its author.
    authorId: text("author_id")
      .notNull()
      .references(() => users.id),
    text: text("text").notNull(),
    mentions: jsonb("mentions").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("conversation_notes_conversation_created_idx").on(t.conversationId, t.createdAt, t.id),
    // Search: the note's words, unaccented and lower-cased (chorus_search_vector: migration 0008).
    index("conversation_notes_text_search_idx").using("gin", sql`chorus_search_vector(${t.text})`),
  ],
);

export const notifications = pgTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    userId: ownedBy("user_id", () => users.id),
    // mention: a teammate mentioned the user in a note; number_health: the number's quality or limit dropped (admins);
    // sla_warning / sla_breached: a conversation's SLA target is near or missed (its assignee, else the admins).
    type: text("type", { enum: ["mention", "number_health", "sla_warning", "sla_breached"] }).notNull(),
    conversationId: text("conversation_id").references(() => conversations.id, { onDelete: "cascade" }),
    /** What happened, for notifications that are not about a note. */
    message: text("message"),
    noteId: text("note_id").references(() => conversationNotes.id, { onDelete: "cascade" }),
    actorId: text("actor_id").references(() => users.id),
    readAt: ts("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("notifications_user_unread_idx").on(t.userId, t.createdAt, t.id).where(sql`${t.readAt} is null`),
    // The inbox's Mentions filter: conversations where one user is mentioned.
    index("notifications_user_conversation_idx").on(t.userId, t.conversationId),
  ],
);

export const conversationActivities = pgTable(
  "conversation_activities",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: ownedBy("conversation_id", () => conversations.id),
    type: text("type").notNull(),
    actorType: text("actor_type", { enum: ["user", "automation", "contact"] }).notNull(),
    actorId: text("actor_id"),
    // The name as it was when it happened: the trail reads the same after a rename or deletion.
    actorName: text("actor_name"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("conversation_activities_conversation_created_idx").on(t.conversationId, t.createdAt, t.id)],
);

export const cannedReplies = pgTable(
  "canned_replies",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    shortcut: text("shortcut").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("canned_replies_account_shortcut_idx").on(t.accountId, t.shortcut),
    index("canned_replies_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export const inboxSettings = pgTable("inbox_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  autoAssignOnReply: boolean("auto_assign_on_reply").notNull().default(true),
  sendReadReceipts: boolean("send_read_receipts").notNull().default(true),
  sendTypingIndicator: boolean("send_typing_indicator").notNull().default(true),
  updatedAt: updatedAt(),
});

export type ConversationNote = typeof conversationNotes.$inferSelect;
export type Notification = typeof notifications.$inferSelect;
export type ConversationActivity = typeof conversationActivities.$inferSelect;
export type CannedReply = typeof cannedReplies.$inferSelect;

// Team inbox: labels (conversation labels live on conversations.labels; snooze and contact
// fields are columns of conversations and contacts above)

export const labels = pgTable(
  "labels",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("labels_account_name_idx").on(t.accountId, sql`lower(${t.name})`),
    index("labels_account_created_idx").on(t.accountId, t.createdAt, t.id),
  ],
);

export type Label = typeof labels.$inferSelect;
