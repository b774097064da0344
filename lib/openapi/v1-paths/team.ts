import { z } from "zod";
import { activityOutput } from "@/lib/activity/schemas";
import { cannedReplyOutput, createCannedReplyInput, updateCannedReplyInput } from "@/lib/canned-replies/schemas";
import { inboxSettingsInput, inboxSettingsOutput } from "@/lib/conversations/inbox-settings-schemas";
import { createNoteInput, noteOutput } from "@/lib/notes/schemas";
import { listNotificationsQuery, markNotificationsReadInput, notificationOutput, notificationsReadOutput } from "@/lib/notifications/schemas";
import { deleted, operationsFor, page, paginationQuery, paginationSchema, pathIds, type V1Domain } from "../v1-common";

const tag = {
  name: "Team inbox",
  description: "Working together on conversations: internal notes and mentions, notifications, the activity trail, typing, canned replies and the inbox settings.",
};
const op = operationsFor(tag.name);

const conversationId = pathIds({ id: "conversation" });
const cannedReplyId = pathIds({ id: "cannedReply" });

export const teamDomain: V1Domain = {
  tag,
  paths: {
    "/v1/conversations/{id}/notes": {
      get: op({
        operationId: "listNotes",
        summary: "List a conversation's notes",
        description: "Newest first.",
        access: { scope: "conversations:read" },
        path: conversationId,
        query: paginationQuery,
        success: { status: "200", description: "A page of notes.", schema: page(noteOutput) },
      }),
      post: op({
        operationId: "createNote",
        summary: "Add an internal note",
        description:
          "A note is seen by teammates only and never sent to the customer. Each user in `mentions` gets a `mention` notification (not the author). A mention of a deleted user or of a user of another account is a 400 naming the entry, and nothing is stored. Emits `note.created`.",
        access: { scope: "conversations:write" },
        path: conversationId,
        body: createNoteInput,
        success: { status: "201", description: "The note.", schema: noteOutput },
      }),
    },
    "/v1/conversations/{id}/activity": {
      get: op({
        operationId: "listActivity",
        summary: "List a conversation's activity",
        description: "Who did what: created, assigned, unassigned, closed, reopened, snoozed, labeled, unlabeled, auto_reply. Newest first.",
        access: { scope: "conversations:read" },
        path: conversationId,
        query: paginationQuery,
        success: { status: "200", description: "A page of the activity trail.", schema: page(activityOutput) },
      }),
    },
    "/v1/conversations/{id}/typing": {
      post: op({
        operationId: "announceTyping",
        summary: "Say you are writing a reply",
        description:
          "Streams `agent.typing` to the teammates watching the inbox (the stream only, never webhooks); they show “… is replying” for 6 s after the last one. Send it every few seconds while typing. Body `{}` or empty.",
        access: { scope: "conversations:write" },
        path: conversationId,
        body: z.object({}).meta({ id: "TypingInput" }),
        bodyOptional: true,
        success: { status: "204", description: "Announced." },
      }),
    },
    "/v1/notifications": {
      get: op({
        operationId: "listNotifications",
        summary: "List your notifications",
        description: "The caller's own notifications (mentions in notes), newest first, and how many are unread.",
        access: { auth: "any" },
        query: listNotificationsQuery,
        success: {
          status: "200",
          description: "A page of notifications.",
          schema: z.object({
            data: z.array(notificationOutput),
            pagination: paginationSchema,
            unread_count: z.int().min(0).meta({ description: "All your unread notifications, not only this page's." }),
          }),
        },
      }),
    },
    "/v1/notifications/read": {
      post: op({
        operationId: "markNotificationsRead",
        summary: "Mark notifications read",
        description: "`{ids: [...]}` marks those of yours (ids of other users' notifications change nothing), `{all: true}` marks all of yours.",
        access: { auth: "any" },
        body: markNotificationsReadInput,
        success: { status: "200", description: "What changed.", schema: notificationsReadOutput },
      }),
    },
    "/v1/config/inbox": {
      get: op({
        operationId: "getInboxSettings",
        summary: "Get the inbox settings",
        access: { scope: "config:read" },
        success: { status: "200", description: "The settings.", schema: inboxSettingsOutput },
      }),
      put: op({
        operationId: "updateInboxSettings",
        summary: "Change the inbox settings",
        description: "`auto_assign_on_reply`: the first reply by a person in an unassigned conversation assigns it to them (`conversation.assigned`).",
        access: { scope: "config:write" },
        body: inboxSettingsInput,
        success: { status: "200", description: "The saved settings.", schema: inboxSettingsOutput },
      }),
    },
    "/v1/canned-replies": {
      get: op({
        operationId: "listCannedReplies",
        summary: "List canned replies",
        description: "Oldest first.",
        access: { scope: "config:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of canned replies.", schema: page(cannedReplyOutput) },
      }),
      post: op({
        operationId: "createCannedReply",
        summary: "Create a canned reply",
        description: "A shortcut already used in the account is a 409.",
        access: { scope: "config:write" },
        body: createCannedReplyInput,
        success: { status: "201", description: "The canned reply.", schema: cannedReplyOutput },
        errors: [409],
      }),
    },
    "/v1/canned-replies/{id}": {
      patch: op({
        operationId: "updateCannedReply",
        summary: "Change a canned reply",
        description: "Send `shortcut`, `text` or both. A shortcut already used by another canned reply is a 409.",
        access: { scope: "config:write" },
        path: cannedReplyId,
        body: updateCannedReplyInput,
        success: { status: "200", description: "The canned reply after the change.", schema: cannedReplyOutput },
        errors: [409],
      }),
      delete: op({
        operationId: "deleteCannedReply",
        summary: "Delete a canned reply",
        access: { scope: "config:write" },
        path: cannedReplyId,
        success: deleted,
      }),
    },
  },
};
