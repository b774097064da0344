import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { conversationSummary } from "@/lib/conversations/schemas";
import { findConversation } from "@/lib/conversations/store";
import { ValidationError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { createMentionNotifications } from "@/lib/notifications/create-mention-notifications";
import { findLiveUserIds } from "@/lib/users/store";
import { type CreateNoteInput, presentNote } from "./schemas";
import { insertNote } from "./store";

/**
 * Adds an internal note to a conversation: stored, never sent to the network. Each mentioned
 * user must be a current user of the account (anything else is a 400 naming the entry and
 * nothing is written); each gets a `mention` notification, except the author.
 */
export async function createNote({ ctx, conversationId, input }: { ctx: ServiceContext<"user">; conversationId: string; input: CreateNoteInput }) {
  const mentions = [...new Set(input.mentions ?? [])];
  return ctx.db.transaction(async (tx) => {
    const conversation = await findConversation(tx, { accountId: ctx.accountId, id: conversationId });
    if (mentions.length) {
      const known = new Set(await findLiveUserIds(tx, { accountId: ctx.accountId, ids: mentions }));
      const unknown = (input.mentions ?? []).flatMap((id, index) => (known.has(id) ? [] : [{ path: `mentions.${index}`, message: "is not a user of this account" }]));
      if (unknown.length) throw new ValidationError(unknown, `${unknown[0].path}: ${unknown[0].message}`);
    }
    const now = new Date();
    const row = await insertNote(tx, { id: newId("note", now), accountId: ctx.accountId, conversationId: conversation.id, authorId: ctx.user.id, text: input.text, mentions, createdAt: now });
    const note = presentNote(row, ctx.user);
    await createMentionNotifications(tx, {
      accountId: ctx.accountId,
      conversationId: conversation.id,
      noteId: row.id,
      actorId: ctx.user.id,
      userIds: mentions.filter((id) => id !== ctx.user.id),
      at: now,
    });
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "note.created", data: { note, conversation: conversationSummary(conversation) } });
    return note;
  });
}
