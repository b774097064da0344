import { z } from "zod";
import type { Contact, Conversation } from "@/db/schema";
import { isoTimestamp, phoneDigits, prefixedId } from "@/lib/api/fields";
import { paginationQuery } from "@/lib/api/pagination";

export const conversationStatuses = ["open", "assigned", "closed"] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

const userIdPattern = /^usr_[0-9a-z]{26}$/;

const statusSchema = z.enum(conversationStatuses).meta({
  id: "ConversationStatus",
  description:
    "new → `open`; assign → `assigned`; unassign → `open`; close (from open or assigned) → `closed`; reopen → `open` (or `assigned` when it still has an assignee). An inbound message reopens a closed conversation.",
});

export const listConversationsQuery = paginationQuery.extend({
  status: z
    .enum(conversationStatuses, { error: "must be one of open, assigned, closed" })
    .optional()
    .meta({ description: "Only conversations in this status." }),
  assigned_to: z
    .string()
    .refine((value) => value === "none" || userIdPattern.test(value), "must be a user id (usr_...) or none")
    .optional()
    .meta({ description: "A user id, or `none` for unassigned conversations.", example: "none" }),
});
export type ListConversationsQuery = z.infer<typeof listConversationsQuery>;

export const assignConversationInput = z.object({
  user_id: z
    .string()
    .regex(userIdPattern, "must be a user id (usr_...)")
    .optional()
    .meta({ description: "The user to assign; the caller when absent.", example: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
});
export type AssignConversationInput = z.infer<typeof assignConversationInput>;

// The conversation shapes are strict: the same components serve answers and webhook bodies.

export const contactOutput = z
  .strictObject({
    id: prefixedId("contact"),
    phone: phoneDigits("The customer's number, digits only (E.164 without `+`)."),
    name: z.string().nullable().meta({ description: "The name the customer's profile shows, when known.", example: "María López" }),
  })
  .meta({ id: "Contact", description: "The customer." });

export const conversationOutput = z
  .strictObject({
    id: prefixedId("conversation"),
    status: statusSchema,
    assigned_to: prefixedId("user", "The assigned user, or null.").nullable(),
    assigned_at: isoTimestamp().nullable(),
    contact: contactOutput,
    last_message_at: isoTimestamp().nullable(),
    // Not in the contract's list, but what an inbox row shows under the contact's name.
    last_message_preview: z.string().nullable().meta({ description: "The latest message in one line (at most 120 characters), as the inbox shows it; an automatic answer does not replace the customer's words.", example: "Do you deliver on Sundays?" }),
    unread_count: z.int().min(0).meta({ description: "Inbound messages since someone last took or read the conversation." }),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
    closed_at: isoTimestamp().nullable(),
  })
  .meta({ id: "Conversation", description: "One conversation with one customer number." });
export type ConversationOutput = z.infer<typeof conversationOutput>;

/** The conversation as `conversation.assigned` carries it. */
export const conversationAssignmentOutput = z
  .strictObject({
    id: prefixedId("conversation"),
    status: statusSchema,
    assigned_to: prefixedId("user", "The assigned user, or null.").nullable(),
    assigned_at: isoTimestamp().nullable(),
  })
  .meta({ id: "ConversationAssignment", description: "Who a conversation is assigned to." });
export type ConversationAssignmentOutput = z.infer<typeof conversationAssignmentOutput>;

/** The conversation as `message.received` carries it. */
export const conversationSummaryOutput = z
  .strictObject({
    id: prefixedId("conversation"),
    status: statusSchema,
    assigned_to: prefixedId("user", "The assigned user, or null.").nullable(),
    created_at: isoTimestamp(),
  })
  .meta({ id: "ConversationSummary", description: "The conversation a message belongs to." });
export type ConversationSummaryOutput = z.infer<typeof conversationSummaryOutput>;

export type ConversationWithContact = Conversation & { contact: Pick<Contact, "id" | "phone" | "name"> };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentConversation(row: ConversationWithContact): ConversationOutput {
  return {
    id: row.id,
    status: row.status,
    assigned_to: row.assignedTo,
    assigned_at: iso(row.assignedAt),
    contact: { id: row.contact.id, phone: row.contact.phone, name: row.contact.name },
    last_message_at: iso(row.lastMessageAt),
    last_message_preview: row.lastMessagePreview,
    unread_count: row.unreadCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    closed_at: iso(row.closedAt),
  };
}

/** The short form events about messages carry (message.received). */
export function conversationSummary(row: Pick<Conversation, "id" | "status" | "assignedTo" | "createdAt">): ConversationSummaryOutput {
  return { id: row.id, status: row.status, assigned_to: row.assignedTo, created_at: row.createdAt.toISOString() };
}

export function presentAssignment(row: Pick<Conversation, "id" | "status" | "assignedTo" | "assignedAt">): ConversationAssignmentOutput {
  return { id: row.id, status: row.status, assigned_to: row.assignedTo, assigned_at: iso(row.assignedAt) };
}
