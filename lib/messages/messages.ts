import "server-only";
import { eq } from "drizzle-orm";
import { messages } from "@/db/schema";
import { keysetPage, type PageArgs } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { findConversation } from "@/lib/conversations/store";
import { NotFoundError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { DELETED_PREVIEW } from "./revise-inbound";
import { presentMessage, presentMessageWithHistory } from "./schemas";
import { eraseMessage, findMessage, findMessageMedia, isLatestMessage, joinMedia, selectMessages, setConversationPreview } from "./store";

/** One message; an admin also gets `history`, the words the customer edited or deleted. */
export async function getMessage({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  const row = await findMessage(ctx.db, { accountId: ctx.accountId, id });
  return ctx.user.role === "admin" ? presentMessageWithHistory(row) : presentMessage(row);
}

/** A conversation's messages, newest first, on messages_conversation_created_idx. */
export async function listConversationMessages({ ctx, conversationId, limit, cursor }: PageArgs & { ctx: ServiceContext; conversationId: string }) {
  const db = ctx.db;
  const conversation = await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  return keysetPage(selectMessages(db).$dynamic(), {
    table: messages,
    accountId: ctx.accountId,
    where: [eq(messages.conversationId, conversation.id)],
    order: "desc",
    limit,
    cursor,
    position: (r) => ({ t: r.message.createdAt, id: r.message.id }),
    present: (r) => presentMessage(joinMedia(r)),
  });
}

/** The media bytes of a message, for download. */
export async function getMessageMedia({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const row = await findMessageMedia(ctx.db, { accountId: ctx.accountId, id });
  if (!row) throw new NotFoundError("Media");
  return row;
}

/**
 * Soft delete: the text and the media bytes are erased for good, the message stays in the
 * thread as a tombstone with `deleted_at` (message.deleted). Deleting a deleted message
 * changes nothing.
 */
export async function deleteMessage({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const message = await findMessage(tx, { accountId: ctx.accountId, id, lock: true });
    if (message.deletedAt) return;
    const now = new Date();
    await eraseMessage(tx, { accountId: ctx.accountId, message, at: now, now });
    // The inbox's preview must not keep showing the erased words.
    if (await isLatestMessage(tx, { conversationId: message.conversationId, id: message.id })) {
      await setConversationPreview(tx, { conversationId: message.conversationId, preview: DELETED_PREVIEW, at: now });
    }
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "message.deleted", data: { message: presentMessage(await findMessage(tx, { accountId: ctx.accountId, id: message.id })) } });
  });
}
