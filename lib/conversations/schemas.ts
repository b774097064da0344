import { z } from "zod";
import type { Contact, Conversation } from "@/db/schema";
import { paginationQuery } from "@/lib/api/pagination";

export const conversationStatuses = ["open", "assigned", "closed"] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];

const userIdPattern = /^usr_[0-9a-z]{26}$/;

export const listConversationsQuery = paginationQuery.extend({
  status: z.enum(conversationStatuses, { error: "must be one of open, assigned, closed" }).optional(),
  assigned_to: z
    .string()
    .refine((value) => value === "none" || userIdPattern.test(value), "must be a user id (usr_...) or none")
    .optional(),
});
export type ListConversationsQuery = z.infer<typeof listConversationsQuery>;

export const assignConversationInput = z.object({
  user_id: z.string().regex(userIdPattern, "must be a user id (usr_...)").optional(),
});
export type AssignConversationInput = z.infer<typeof assignConversationInput>;

export const contactOutput = z.object({ id: z.string(), phone: z.string(), name: z.string().nullable() });

export const conversationOutput = z.object({
  id: z.string(),
  status: z.enum(conversationStatuses),
  assigned_to: z.string().nullable(),
  assigned_at: z.string().nullable(),
  contact: contactOutput,
  last_message_at: z.string().nullable(),
  // Not in the contract's list, but what an inbox row shows under the contact's name.
  last_message_preview: z.string().nullable(),
  unread_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
});
export type ConversationOutput = z.infer<typeof conversationOutput>;

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
export function conversationSummary(row: Pick<Conversation, "id" | "status" | "assignedTo" | "createdAt">) {
  return { id: row.id, status: row.status, assigned_to: row.assignedTo, created_at: row.createdAt.toISOString() };
}
