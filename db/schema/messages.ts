import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { bytea, createdAt, ownedBy, ts, updatedAt } from "./columns";
import { conversations } from "./conversations";

export const media = pgTable(
  "media",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    mimeType: text("mime_type").notNull(),
    filename: text("filename"),
    caption: text("caption"),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("media_account_idx").on(t.accountId)],
);

/** Every kind of message the network carries; `unsupported` keeps what Chorus cannot show. */
export const messageKinds = [
  "text",
  "image",
  "document",
  "audio",
  "video",
  "sticker",
  "location",
  "contacts",
  "reaction",
  "interactive",
  "button",
  "template",
  "unsupported",
] as const;

export type MessageReaction = { emoji: string; from: string };
/** The network's `pricing` of a status, and the recipient's country calling code it was priced for. */
export type MessagePricing = { category: string; billable: boolean; pricing_model?: string; country_code?: string };
export type MessageContent = Record<string, unknown>;
/** One earlier version of a message: its words until `until` (an edit or a deletion by the customer). */
export type MessageRevision = { text?: string; caption?: string; until: string; change: "edited" | "deleted"; network_message_id?: string };

export const messages = pgTable(
  "messages",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: ownedBy("conversation_id", () => conversations.id),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    fromNumber: text("from_number").notNull(),
    toNumber: text("to_number").notNull(),
    type: text("type", { enum: messageKinds }).notNull(),
    text: text("text"),
    /** The customer's language, detected from an inbound text or caption; null when unsure. */
    language: text("language", { enum: ["en", "es", "pt"] }),
    mediaId: text("media_id").references(() => media.id, { onDelete: "set null" }),
    status: text("status", {
      enum: ["queued", "sent", "delivered", "read", "failed", "received"],
    }).notNull(),
    senderType: text("sender_type", { enum: ["user", "contact", "automation"] }).notNull(),
    senderUserId: text("sender_user_id"),
    error: jsonb("error").$type<{ code: string; message: string } | null>(),
    networkMessageId: text("network_message_id"),
    // What a kind other than text and media carries (location, contacts, interactive, button,
    // template, reaction, unsupported), keyed by the field name the API shows it under.
    content: jsonb("content").$type<MessageContent | null>(),
    // Reactions on this message, one per sender; an empty emoji from the network removes it.
    reactions: jsonb("reactions").$type<MessageReaction[] | null>(),
    // The message this one replies to (quoted).
    contextMessageId: text("context_message_id"),
    // What the network reported it charges for this outbound message (from its statuses).
    pricing: jsonb("pricing").$type<MessagePricing | null>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts("deleted_at"),
    // The customer edited it (latest edit); earlier versions are kept in history for admins.
    editedAt: ts("edited_at"),
    history: jsonb("history").$type<MessageRevision[] | null>(),
  },
  (t) => [
    index("messages_conversation_created_idx").on(t.conversationId, t.createdAt, t.id),
    index("messages_account_created_idx").on(t.accountId, t.createdAt, t.id),
    // Reports: a conversation's first inbound message and the first reply after it.
    index("messages_conversation_direction_created_idx").on(t.conversationId, t.direction, t.createdAt, t.id),
    uniqueIndex("messages_account_network_id_idx")
      .on(t.accountId, t.networkMessageId)
      .where(sql`${t.networkMessageId} is not null`),
    // Search: the words of the text, unaccented and lower-cased (chorus_search_vector: migration 0008).
    index("messages_text_search_idx").using("gin", sql`chorus_search_vector(${t.text})`),
  ],
);

export type Message = typeof messages.$inferSelect;
export type Media = typeof media.$inferSelect;

/**
 * A send to the network that has started and whose answer is not recorded yet: committed before
 * the network is called, removed with the answer. Found by a later attempt, it means an earlier
 * one died in between, and the message is not sent again (it fails as `interrupted`).
 */
export const messageSendAttempts = pgTable("message_send_attempts", {
  messageId: text("message_id")
    .primaryKey()
    .references(() => messages.id, { onDelete: "cascade" }),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  startedAt: ts("started_at").notNull(),
});
