import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { ownedBy, ts, updatedAt } from "./columns";
import { conversations } from "./conversations";

// Reports: the satisfaction survey's settings (one row per account; absent = disabled).
export const csatSettings = pgTable("csat_settings", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  question: text("question").notNull(),
  updatedAt: updatedAt(),
});
export type CsatSettings = typeof csatSettings.$inferSelect;

// Reports: what happened, recorded when it happened (a close stays counted for the range and
// the agent it belonged to after the conversation is reopened or reassigned). No foreign key to
// the conversation: a deleted conversation's work still happened.
export const reportingEvents = pgTable(
  "reporting_events",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: text("conversation_id").notNull(),
    // `conversation_resolved`: value_s is the resolution time, user_id the assignee at the close.
    name: text("name", { enum: ["conversation_resolved"] }).notNull(),
    userId: text("user_id"),
    // Who did it (the person who closed), when a person did.
    actorId: text("actor_id"),
    valueS: doublePrecision("value_s").notNull(),
    startedAt: ts("started_at").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    index("reporting_events_account_name_created_idx").on(t.accountId, t.name, t.createdAt),
    index("reporting_events_conversation_idx").on(t.conversationId, t.createdAt),
  ],
);

// What reports read instead of the messages, kept by triggers on messages in the transaction of
// each change (migration 0037): an account's messages per 15-minute slot, each agent's messages
// per UTC day, and each conversation's first inbound message with the first reply by a person
// that reached the network.
export const reportMessageSlots = pgTable(
  "report_message_slots",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    slot: ts("slot").notNull(),
    received: integer("received").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    sentByAgents: integer("sent_by_agents").notNull().default(0),
    automated: integer("automated").notNull().default(0),
    failed: integer("failed").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_message_slots_pk", columns: [t.accountId, t.slot] })],
);

export const reportAgentDays = pgTable(
  "report_agent_days",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    day: ts("day").notNull(),
    userId: text("user_id").notNull(),
    sent: integer("sent").notNull().default(0),
    // Sent and not failed.
    sentOk: integer("sent_ok").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_agent_days_pk", columns: [t.accountId, t.day, t.userId] })],
);

export const reportFirstResponses = pgTable(
  "report_first_responses",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    inboundAt: ts("inbound_at").notNull(),
    inboundId: text("inbound_id").notNull(),
    replyAt: ts("reply_at"),
    replyId: text("reply_id"),
    replyUserId: text("reply_user_id"),
  },
  (t) => [index("report_first_responses_account_inbound_idx").on(t.accountId, t.inboundAt)],
);

// SLA targets met and breached per UTC day, policy and person ('' for nobody), kept by a trigger
// on sla_outcomes (migration 0037).
export const reportSlaDays = pgTable(
  "report_sla_days",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    day: ts("day").notNull(),
    slaPolicyId: text("sla_policy_id").notNull(),
    userId: text("user_id").notNull().default(""),
    met: integer("met").notNull().default(0),
    breached: integer("breached").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_sla_days_pk", columns: [t.accountId, t.day, t.slaPolicyId, t.userId] })],
);

// Per-day histograms of resolution and first response times (fixed log-scale buckets of
// seconds, -1 an unanswered first response), kept by triggers on reporting_events,
// report_implicit_closes and report_first_responses (migration 0041).
export const reportDurationDays = pgTable(
  "report_duration_days",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    kind: text("kind", { enum: ["resolution", "first_response"] }).notNull(),
    day: ts("day").notNull(),
    userId: text("user_id").notNull().default(""),
    bucket: smallint("bucket").notNull(),
    n: integer("n").notNull().default(0),
    totalS: doublePrecision("total_s").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_duration_days_pk", columns: [t.accountId, t.kind, t.day, t.userId, t.bucket] })],
);

// Closed conversations whose close was never recorded as a resolution, in the shape of
// reporting_events, kept by triggers on conversations and reporting_events (migration 0041).
export const reportImplicitCloses = pgTable(
  "report_implicit_closes",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    name: text("name", { enum: ["conversation_resolved"] }).notNull().default("conversation_resolved"),
    userId: text("user_id"),
    valueS: doublePrecision("value_s").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("report_implicit_closes_account_created_idx").on(t.accountId, t.createdAt)],
);

// Each close that follows an earlier close of the same conversation, by anyone ('') or by the
// same person, with the earlier one's time (migration 0041).
export const reportCloseRepeats = pgTable(
  "report_close_repeats",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: text("conversation_id").notNull(),
    userId: text("user_id").notNull().default(""),
    closedAt: ts("closed_at").notNull(),
    previousAt: ts("previous_at").notNull(),
  },
  (t) => [
    index("report_close_repeats_account_closed_idx").on(t.accountId, t.closedAt),
    index("report_close_repeats_conversation_idx").on(t.conversationId),
  ],
);

// Each `conversation.assigned` event as a row, with when the same person was last given the same
// conversation before, and the count per UTC day and person; kept by triggers on events
// (migration 0041).
export const reportAssignments = pgTable(
  "report_assignments",
  {
    eventId: text("event_id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    conversationId: text("conversation_id").notNull(),
    userId: text("user_id").notNull(),
    createdAt: ts("created_at").notNull(),
    previousAt: ts("previous_at"),
  },
  (t) => [
    index("report_assignments_account_created_idx").on(t.accountId, t.createdAt),
    index("report_assignments_conversation_idx").on(t.conversationId, t.userId, t.createdAt),
    index("report_assignments_repeats_idx")
      .on(t.accountId, t.createdAt)
      .where(sql`${t.previousAt} is not null`),
  ],
);

export const reportAssignmentDays = pgTable(
  "report_assignment_days",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    day: ts("day").notNull(),
    userId: text("user_id").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_assignment_days_pk", columns: [t.accountId, t.day, t.userId] })],
);

// Conversations created per UTC day, kept by triggers on conversations (migration 0041).
export const reportConversationDays = pgTable(
  "report_conversation_days",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    day: ts("day").notNull(),
    created: integer("created").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_conversation_days_pk", columns: [t.accountId, t.day] })],
);

// The account's conversations counted per status, assignee ('' for nobody) and whether customer
// messages are unread, kept by triggers on conversations with every change of these (migration
// 0043): the inbox's filter tabs and the reports' "right now" figures read these few rows
// instead of the account's conversations.
export const conversationCounts = pgTable(
  "conversation_counts",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["open", "assigned", "closed", "snoozed"] }).notNull(),
    userId: text("user_id").notNull().default(""),
    unread: boolean("unread").notNull().default(false),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "conversation_counts_pk", columns: [t.accountId, t.status, t.userId, t.unread] })],
);

// Each satisfaction answer with the agent it belongs to, and the count per UTC day, agent ('' for
// nobody) and score, kept by triggers on conversations and reporting_events (migration 0041).
export const reportRatings = pgTable(
  "report_ratings",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    ratedAt: ts("rated_at").notNull(),
    score: integer("score").notNull(),
    userId: text("user_id"),
  },
  (t) => [index("report_ratings_account_rated_idx").on(t.accountId, t.ratedAt)],
);

export const reportRatingDays = pgTable(
  "report_rating_days",
  {
    accountId: ownedBy("account_id", () => accounts.id),
    day: ts("day").notNull(),
    userId: text("user_id").notNull().default(""),
    score: integer("score").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "report_rating_days_pk", columns: [t.accountId, t.day, t.userId, t.score] })],
);
