import { type AnyColumn, sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { accounts, users } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";
import { type LabelRef, contacts } from "./contacts";

/** Urgent first, no priority last: the order of `?sort=priority`. */
export const priorityRank = (priority: AnyColumn) =>
  sql<number>`(case ${priority} when 'urgent' then 0 when 'high' then 1 when 'medium' then 2 when 'low' then 3 else 4 end)`;

export const conversations = pgTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    contactId: ownedBy("contact_id", () => contacts.id),
    status: text("status", { enum: ["open", "assigned", "closed", "snoozed"] }).notNull(),
    assignedTo: text("assigned_to").references(() => users.id, { onDelete: "set null" }),
    assignedAt: ts("assigned_at"),
    lastMessageAt: ts("last_message_at"),
    lastMessagePreview: text("last_message_preview"),
    unreadCount: integer("unread_count").notNull().default(0),
    lastAutoReplyAt: ts("last_auto_reply_at"),
    // The newest inbound message the automatic answers have handled: a retried job answers nothing twice.
    autoReplyHandledMessageId: text("auto_reply_handled_message_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    closedAt: ts("closed_at"),
    // Reports: when the conversation last became active (creation, or its latest reopening).
    openedAt: ts("opened_at"),
    // Satisfaction survey: when it was last sent, and the customer's first answer (never overwritten).
    csatAskedAt: ts("csat_asked_at"),
    csatScore: integer("csat_score"),
    csatAt: ts("csat_at"),
    // The customer's last inbound network timestamp + 24 h: free-form sends are allowed until then.
    serviceWindowExpiresAt: ts("service_window_expires_at"),
    // When the typing indicator last went to the customer (sent at most once per 20 s).
    typingIndicatorSentAt: ts("typing_indicator_sent_at"),
    // While `snoozed`: when it wakes (back to open or assigned).
    snoozedUntil: ts("snoozed_until"),
    // The labels as the conversation resource shows them; the labels table is the list to pick from.
    labels: jsonb("labels").$type<LabelRef[]>().notNull().default([]),
    teamId: text("team_id"),
    priority: text("priority", { enum: ["urgent", "high", "medium", "low"] }),
    // The SLA clock that runs now: which policy, which target (kind), when it started, when it
    // warns (80 %) and when it is due; status ok → warning → breached, or met when answered in time.
    slaPolicyId: text("sla_policy_id"),
    slaKind: text("sla_kind", { enum: ["first_response", "next_response", "resolution"] }),
    slaStartedAt: ts("sla_started_at"),
    slaDueAt: ts("sla_due_at"),
    slaWarnAt: ts("sla_warn_at"),
    slaStatus: text("sla_status", { enum: ["ok", "warning", "breached", "met"] }),
    // Since when the customer waits for a person's answer (null once a person answered).
    awaitingReplySince: ts("awaiting_reply_since"),
  },
  (t) => [
    index("conversations_account_team_created_idx").on(t.accountId, t.teamId, t.createdAt, t.id),
    index("conversations_account_priority_created_idx").on(t.accountId, t.priority, t.createdAt, t.id),
    index("conversations_account_priority_rank_idx").on(t.accountId, priorityRank(t.priority), sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index("conversations_sla_due_idx").on(t.slaDueAt).where(sql`${t.slaStatus} in ('ok', 'warning')`),
    index("conversations_sla_warn_idx").on(t.slaWarnAt).where(sql`${t.slaStatus} = 'ok'`),
    index("conversations_account_waiting_idx").on(t.accountId, t.createdAt, t.id).where(sql`${t.status} = 'open' and ${t.assignedTo} is null`),
    index("conversations_account_created_idx").on(t.accountId, t.createdAt, t.id),
    index("conversations_account_status_created_idx").on(t.accountId, t.status, t.createdAt, t.id),
    index("conversations_account_assignee_created_idx").on(
      t.accountId,
      t.assignedTo,
      t.createdAt,
      t.id,
    ),
    // The inbox orders by latest activity; a conversation without messages counts from its creation.
    index("conversations_account_activity_idx").on(t.accountId, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index("conversations_contact_idx").on(t.accountId, t.contactId, t.status),
    // Reports: conversations closed in a date range.
    index("conversations_account_closed_idx").on(t.accountId, t.closedAt),
    // Reports: satisfaction answers given in a date range.
    index("conversations_account_csat_idx").on(t.accountId, t.csatAt).where(sql`${t.csatScore} is not null`),
    // ?label=lbl_…: containment on the labels array.
    index("conversations_labels_idx").using("gin", sql`${t.labels} jsonb_path_ops`),
  ],
);

export type Conversation = typeof conversations.$inferSelect;
