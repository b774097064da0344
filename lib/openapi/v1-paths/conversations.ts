import { z } from "zod";
import { idOf, operationsFor, page, paginationQuery, pathIds, timestamp, type V1Domain } from "../v1-common";

// Written from SPEC section 4. When lib/conversations/schemas.ts exists, its public
// schemas replace these so the document and the handlers share one definition.

const tag = { name: "Conversations", description: "One conversation per customer number at a time; assign, close and reopen them." };
const op = operationsFor(tag.name);

export const conversationStatusSchema = z.enum(["open", "assigned", "closed"]);

export const contactSchema = z
  .strictObject({
    id: idOf("contact"),
    phone: z.string().meta({ description: "Digits only (E.164 without `+`).", example: "15551234567" }),
    name: z.string().nullable().meta({ example: "María López" }),
  })
  .meta({ id: "Contact" });

export const conversationSchema = z
  .strictObject({
    id: idOf("conversation"),
    status: conversationStatusSchema,
    assigned_to: idOf("user", "The assigned user's id, or null.").nullable(),
    assigned_at: timestamp().nullable(),
    contact: contactSchema,
    last_message_at: timestamp().nullable(),
    unread_count: z.int().min(0),
    created_at: timestamp(),
    updated_at: timestamp(),
    closed_at: timestamp().nullable(),
  })
  .meta({
    id: "Conversation",
    description: "Status machine: new → `open`; assign → `assigned`; unassign → `open`; close (from open or assigned) → `closed`; reopen → `open` (or `assigned` when it still has an assignee). An inbound message reopens a closed conversation.",
  });

/** The short conversation of assignment events and `message.received`. */
export const conversationRefSchema = z
  .looseObject({
    id: idOf("conversation"),
    status: conversationStatusSchema,
    assigned_to: idOf("user").nullable().optional(),
    assigned_at: timestamp().nullable().optional(),
    created_at: timestamp().optional(),
  })
  .meta({ id: "ConversationRef" });

const listConversationsQuery = paginationQuery.extend({
  status: conversationStatusSchema.optional(),
  assigned_to: z.string().optional().meta({ description: "A user id, or `none` for unassigned conversations.", example: "none" }),
});

const assignInput = z.object({
  user_id: idOf("user", "The user to assign; the caller when absent.").optional(),
});

const byId = pathIds({ id: "conversation" });

const transition = (operationId: string, summary: string, description: string) =>
  op({
    operationId,
    summary,
    description,
    access: { scope: "conversations:write" },
    path: byId,
    success: { status: "200", description: "The conversation after the change.", schema: conversationSchema },
    errors: [409],
  });

export const conversationsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/conversations": {
      get: op({
        operationId: "listConversations",
        summary: "List conversations",
        access: { scope: "conversations:read" },
        query: listConversationsQuery,
        success: { status: "200", description: "A page of conversations.", schema: page(conversationSchema) },
      }),
    },
    "/v1/conversations/{id}": {
      get: op({
        operationId: "getConversation",
        summary: "Get a conversation",
        access: { scope: "conversations:read" },
        path: byId,
        success: { status: "200", description: "The conversation.", schema: conversationSchema },
      }),
      delete: op({
        operationId: "deleteConversation",
        summary: "Delete a conversation",
        description: "Deletes the conversation and its messages.",
        access: { scope: "conversations:delete" },
        path: byId,
        success: { status: "204", description: "Deleted." },
      }),
    },
    "/v1/conversations/{id}/assign": {
      post: op({
        operationId: "assignConversation",
        summary: "Assign a conversation",
        description: "Assigns to `user_id`, or to the caller without a body. Emits `conversation.assigned`. A closed conversation answers 409 `invalid_transition`.",
        access: { scope: "conversations:write" },
        path: byId,
        body: assignInput,
        bodyOptional: true,
        success: { status: "200", description: "The assigned conversation.", schema: conversationSchema },
        errors: [409],
      }),
    },
    "/v1/conversations/{id}/unassign": {
      post: transition("unassignConversation", "Unassign a conversation", "Back to `open`. Emits `conversation.unassigned`; 409 `invalid_transition` unless assigned."),
    },
    "/v1/conversations/{id}/close": {
      post: transition("closeConversation", "Close a conversation", "From `open` or `assigned`. Emits `conversation.closed`; 409 `invalid_transition` when already closed."),
    },
    "/v1/conversations/{id}/reopen": {
      post: transition("reopenConversation", "Reopen a conversation", "From `closed` to `open` (or `assigned` when it still has an assignee). Emits `conversation.reopened`; 409 `invalid_transition` unless closed."),
    },
  },
};
