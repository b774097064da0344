import { z } from "zod";
import type { Contact, Conversation } from "@/db/schema";
import { isoTimestamp, networkUserIdField, phoneDigits, prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";

const conversationStatuses = ["open", "assigned", "closed", "snoozed"] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

const userIdPattern = /^usr_[0-9a-z]{26}$/;
export const labelIdPattern = /^lbl_[0-9a-z]{26}$/;

const labelRefOutput = z
  .strictObject({
    id: prefixedId("label"),
    name: z.string().meta({ example: "VIP" }),
    color: z.string().meta({ description: "`#rrggbb`.", example: "#16a34a" }),
  })
  .meta({ id: "LabelRef", description: "A label on a conversation." });

const statusSchema = z.enum(conversationStatuses).meta({
  id: "ConversationStatus",
  description:
    "new → `open`; assign → `assigned`; unassign → `open`; close (from open, assigned or snoozed) → `closed`; reopen → `open` (or `assigned` when it still has an assignee); snooze (from open or assigned) → `snoozed` until `snoozed_until` or the customer's next message, then `open` or `assigned` again. An inbound message reopens a closed conversation.",
});

export const priorities = ["urgent", "high", "medium", "low"] as const;
export type Priority = (typeof priorities)[number];
export const teamIdPattern = /^team_[0-9a-z]{26}$/;

const priorityOutput = z.enum(priorities).nullable().meta({ id: "Priority", description: "`urgent`, `high`, `medium`, `low`, or null (none)." });

export const slaStateOutput = z
  .strictObject({
    policy_id: prefixedId("slaPolicy"),
    kind: z.enum(["first_response", "next_response", "resolution"]).nullable().meta({ description: "The target whose clock runs now; null when none runs (answered, closed)." }),
    due_at: isoTimestamp("When that target is due (business-hours policies count only opening hours); null when no clock runs.").nullable(),
    status: z.enum(["ok", "warning", "breached"]).meta({ description: "`warning` from 80 % of the time, `breached` once due without an answer." }),
  })
  .meta({ id: "ConversationSla", description: "The SLA policy applied to the conversation and its running clock." });

export const listConversationsQuery = paginationQuery.extend({
  status: z
    .enum(conversationStatuses, { error: "must be one of open, assigned, closed, snoozed" })
    .optional()
    .meta({ description: "Only conversations in this status." }),
  assigned_to: z
    .string()
    .refine((value) => value === "none" || userIdPattern.test(value), "must be a user id (usr_...) or none")
    .optional()
    .meta({ description: "A user id, or `none` for unassigned conversations.", example: "none" }),
  label: z
    .string()
    .regex(labelIdPattern, "must be a label id (lbl_...)")
    .optional()
    .meta({ description: "Only conversations carrying this label.", example: "lbl_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  team: z
    .string()
    .refine((value) => value === "none" || teamIdPattern.test(value), "must be a team id (team_...) or none")
    .optional()
    .meta({ description: "A team id, or `none` for conversations without a team.", example: "team_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  priority: z
    .enum([...priorities, "none"], { error: "must be one of urgent, high, medium, low, none" })
    .optional()
    .meta({ description: "Only conversations of this priority (`none`: without one)." }),
  sort: z
    .enum(["created", "priority"], { error: "must be created or priority" })
    .default("created")
    .meta({ description: "`created` (newest first, the default) or `priority` (urgent first, then high, medium, low, none; within one, latest activity first)." }),
});

export const updateConversationInput = z
  .strictObject({
    priority: z.enum(priorities, { error: "must be one of urgent, high, medium, low, or null" }).nullable().optional().meta({ description: "The priority; null removes it." }),
    team_id: z.string().regex(teamIdPattern, "must be a team id (team_...)").nullable().optional().meta({ description: "The team; null removes it. An unknown team is a 400." }),
  })
  .refine((v) => v.priority !== undefined || v.team_id !== undefined, { message: "send priority or team_id" })
  .meta({ id: "UpdateConversation" });
export type UpdateConversationInput = z.infer<typeof updateConversationInput>;

export const assignConversationInput = z.object({
  user_id: z
    .string()
    .regex(userIdPattern, "must be a user id (usr_...)")
    .optional()
    .meta({ description: "The user to assign; the caller when absent.", example: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
});

export const snoozeConversationInput = z
  .strictObject({
    until: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-22T18:00:00.000Z" })
      .transform((value) => new Date(value))
      .meta({ description: "When it wakes: in the future, at most 90 days ahead.", example: "2026-11-22T18:00:00.000Z" }),
  })
  .meta({ id: "SnoozeConversation" });

// The conversation shapes are strict: the same components serve answers and webhook bodies.

const contactOutput = z
  .strictObject({
    id: prefixedId("contact"),
    phone: phoneDigits("The customer's number, digits only (E.164 without `+`); null for a customer known only by their username's business-scoped user id.").nullable(),
    network_user_id: networkUserIdField("The customer's business-scoped user id (BSUID) on the network, when it sent one.").nullable(),
    username: z.string().nullable().meta({ description: "The customer's WhatsApp username, when they adopted one.", example: "@maria.lopez" }),
    name: z.string().nullable().meta({ description: "The name the customer's profile shows, when known.", example: "María López" }),
  })
  .meta({ id: "Contact", description: "The customer." });

const csatOutput = z
  .strictObject({
    score: z.int().min(1).max(5).meta({ description: "1 (very unhappy) to 5 (very happy)." }),
    at: isoTimestamp("When the customer answered."),
  })
  .meta({ id: "ConversationCsat", description: "The customer's satisfaction score, given after a close. The first answer stays." });

/** Which conversation, its status and its assignee: what every short form of a conversation starts with. */
const conversationRef = {
  id: prefixedId("conversation"),
  status: statusSchema,
  assigned_to: prefixedId("user", "The assigned user, or null.").nullable(),
};

export const conversationOutput = z
  .strictObject({
    ...conversationRef,
    assigned_at: isoTimestamp().nullable(),
    contact: contactOutput,
    last_message_at: isoTimestamp().nullable(),
    // Not in the contract's list, but what an inbox row shows under the contact's name.
    last_message_preview: z.string().nullable().meta({ description: "The latest message in one line (at most 120 characters), as the inbox shows it; an automatic answer does not replace the customer's words.", example: "Do you deliver on Sundays?" }),
    unread_count: z.int().min(0).meta({ description: "Inbound messages since someone last took or read the conversation." }),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
    closed_at: isoTimestamp().nullable(),
    snoozed_until: isoTimestamp("While `snoozed`: when it returns to `open` or `assigned`.").nullable(),
    labels: z.array(labelRefOutput).meta({ description: "Its labels, by name." }),
    service_window_expires_at: isoTimestamp(
      "The customer's last message (by the network's clock) + 24 hours: until then any message can be sent, afterwards only templates (409 `outside_service_window`). Null while the customer has never written.",
    ).nullable(),
    csat: csatOutput.nullable().meta({ description: "The customer's answer to the satisfaction survey; null until they answer." }),
    team_id: prefixedId("team", "The team it belongs to, or null.").nullable(),
    priority: priorityOutput,
    sla: slaStateOutput.nullable().meta({ description: "The applied SLA policy and its clock; null without one." }),
  })
  .meta({ id: "Conversation", description: "One conversation with one customer number." });
export type ConversationOutput = z.infer<typeof conversationOutput>;

/** The conversation as `conversation.assigned` carries it. */
export const conversationAssignmentOutput = z
  .strictObject({ ...conversationRef, assigned_at: isoTimestamp().nullable() })
  .meta({ id: "ConversationAssignment", description: "Who a conversation is assigned to." });
export type ConversationAssignmentOutput = z.infer<typeof conversationAssignmentOutput>;

/** The conversation as `message.received` carries it. */
export const conversationSummaryOutput = z
  .strictObject({ ...conversationRef, created_at: isoTimestamp() })
  .meta({ id: "ConversationSummary", description: "The conversation a message belongs to." });
export type ConversationSummaryOutput = z.infer<typeof conversationSummaryOutput>;

export type ConversationWithContact = Conversation & { contact: Pick<Contact, "id" | "phone" | "networkUserId" | "username" | "name" | "blocked"> };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentConversation(row: ConversationWithContact): ConversationOutput {
  return {
    id: row.id,
    status: row.status,
    assigned_to: row.assignedTo,
    assigned_at: iso(row.assignedAt),
    contact: { id: row.contact.id, phone: row.contact.phone, network_user_id: row.contact.networkUserId, username: row.contact.username, name: row.contact.name },
    last_message_at: iso(row.lastMessageAt),
    last_message_preview: row.lastMessagePreview,
    unread_count: row.unreadCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    closed_at: iso(row.closedAt),
    snoozed_until: iso(row.snoozedUntil),
    labels: [...(row.labels ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    service_window_expires_at: iso(row.serviceWindowExpiresAt),
    csat: row.csatScore !== null && row.csatAt ? { score: row.csatScore, at: row.csatAt.toISOString() } : null,
    team_id: row.teamId ?? null,
    priority: row.priority ?? null,
    sla: presentSlaState(row),
  };
}

export function presentSlaState(row: Pick<Conversation, "slaPolicyId" | "slaKind" | "slaDueAt" | "slaStatus">): z.infer<typeof slaStateOutput> | null {
  if (!row.slaPolicyId) return null;
  const status = row.slaStatus === "warning" || row.slaStatus === "breached" ? row.slaStatus : "ok";
  return { policy_id: row.slaPolicyId, kind: row.slaKind ?? null, due_at: iso(row.slaDueAt ?? null), status };
}

/** The short form events about messages carry (message.received). */
export function conversationSummary(row: Pick<Conversation, "id" | "status" | "assignedTo" | "createdAt">): ConversationSummaryOutput {
  return { id: row.id, status: row.status, assigned_to: row.assignedTo, created_at: row.createdAt.toISOString() };
}

export function presentAssignment(row: Pick<Conversation, "id" | "status" | "assignedTo" | "assignedAt">): ConversationAssignmentOutput {
  return { id: row.id, status: row.status, assigned_to: row.assignedTo, assigned_at: iso(row.assignedAt) };
}
