import { activityOutput } from "@/lib/activity/schemas";
import { assignConversationInput, conversationOutput, listConversationsQuery } from "@/lib/conversations/schemas";
import { updateConversationOperation } from "./team-workflow";
import { getConversationQuery } from "@/lib/inbox/open-schemas";
import { messageOutput } from "@/lib/messages/schemas";
import { noteOutput } from "@/lib/notes/schemas";
import { deleted, operationsFor, page, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Conversations", description: "One conversation per customer number at a time; assign, close and reopen them." };
const op = operationsFor(tag.name);

const byId = pathIds({ id: "conversation" });

const included = (item: Parameters<typeof page>[0], description: string) => page(item).optional().meta({ description });

/** A conversation with the newest pages of the lists `include` asked for. */
const conversationWithThreadOutput = conversationOutput
  .extend({
    messages: included(messageOutput, "With `include=messages`: the newest page of its messages (`limit`), newest first; `next_cursor` pages on at `GET /v1/conversations/{id}/messages`."),
    notes: included(noteOutput, "With `include=notes`: its newest 100 notes, newest first; `next_cursor` pages on at `GET /v1/conversations/{id}/notes`."),
    activity: included(activityOutput, "With `include=activity`: its newest 100 activity entries, newest first; `next_cursor` pages on at `GET /v1/conversations/{id}/activity`."),
  })
  .meta({ id: "ConversationWithThread", description: "A conversation, with the newest pages of the lists asked for in `include`." });

const transition = (operationId: string, summary: string, description: string) =>
  op({
    operationId,
    summary,
    description,
    access: { scope: "conversations:write" },
    path: byId,
    success: { status: "200", description: "The conversation after the change.", schema: conversationOutput },
    errors: [409],
  });

export const conversationsDomain: V1Domain = {
  tag,
  paths: {
    "/v1/conversations": {
      get: op({
        operationId: "listConversations",
        summary: "List conversations",
        description: "Newest first (by creation).",
        access: { scope: "conversations:read" },
        query: listConversationsQuery,
        success: { status: "200", description: "A page of conversations.", schema: page(conversationOutput) },
      }),
    },
    "/v1/conversations/{id}": {
      get: op({
        operationId: "getConversation",
        summary: "Get a conversation",
        description:
          "With `include` (e.g. `messages,notes,activity`) the answer also carries the newest page of each list, so a client opens a conversation in one request. `include=messages` needs `messages:read` as well (403 without it); an unknown name is a 400.",
        access: { scope: "conversations:read" },
        path: byId,
        query: getConversationQuery,
        success: { status: "200", description: "The conversation, and the lists asked for.", schema: conversationWithThreadOutput },
      }),
      patch: updateConversationOperation,
      delete: op({
        operationId: "deleteConversation",
        summary: "Delete a conversation",
        description: "Deletes the conversation, its messages and their media for good.",
        access: { scope: "conversations:delete" },
        path: byId,
        success: deleted,
      }),
    },
    "/v1/conversations/{id}/assign": {
      post: op({
        operationId: "assignConversation",
        summary: "Assign a conversation",
        description:
          "Assigns to `user_id`, or to the caller with an empty body or `{}`; taking a conversation resets its unread count. Assigning to the current assignee changes nothing. An unknown `user_id` is a 404; a closed conversation answers 409 `invalid_transition`. Emits `conversation.assigned`.",
        access: { scope: "conversations:write" },
        path: byId,
        body: assignConversationInput,
        bodyOptional: true,
        success: { status: "200", description: "The assigned conversation.", schema: conversationOutput },
        errors: [409],
      }),
    },
    "/v1/conversations/{id}/unassign": {
      post: transition("unassignConversation", "Unassign a conversation", "Back to `open`. Emits `conversation.unassigned`; 409 `invalid_transition` unless assigned."),
    },
    "/v1/conversations/{id}/close": {
      post: transition(
        "closeConversation",
        "Close a conversation",
        "From `open` or `assigned`; the assignee is kept, so a reopen returns it to them. Emits `conversation.closed`; 409 `invalid_transition` when already closed.",
      ),
    },
    "/v1/conversations/{id}/reopen": {
      post: transition(
        "reopenConversation",
        "Reopen a conversation",
        "From `closed` to `open`, or `assigned` when its assignee is still a user. Emits `conversation.reopened`; 409 `invalid_transition` unless closed.",
      ),
    },
  },
};
