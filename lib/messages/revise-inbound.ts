import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import type { SystemContext } from "@/lib/auth/context";
import { contacts, conversations, media, type MessageRevision, messages } from "@/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import type { InboundRevision } from "@/lib/network/types";
import { presentMessage, previewOf } from "./schemas";
import { findMessage } from "./store";

/** What an inbox row shows when the latest message was deleted. */
export const DELETED_PREVIEW = "Message deleted";

/** Whether this message is its conversation's latest (whose words the inbox row shows). */
export async function isLatestMessage(tx: Executor, { conversationId, id }: { conversationId: string; id: string }) {
  const [latest] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return latest?.id === id;
}

export type RevisionResult = { applied: true } | { duplicate: true } | { skipped: string };

/**
 * Applies a customer's edit or deletion to the message they sent earlier. The words it had are
 * kept in the message's `history` (shown to admins only); an edit sets the new text (or the
 * new caption of a media message) and `edited_at`; a deletion erases the text, the file and
 * the content and sets `deleted_at`, so agents see a tombstone. Emits `message.updated` or
 * `message.deleted` (none for a blocked contact). Only the customer who sent a message can
 * change it; a redelivered notification changes nothing; an edit after a deletion is ignored.
 */
export async function applyCustomerRevision(ctx: SystemContext, { accountId, revision }: { accountId: string; revision: InboundRevision }): Promise<RevisionResult> {
  return ctx.db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.networkMessageId, revision.networkMessageId)))
      .limit(1);
    if (!target) return { skipped: "revision_target_unknown" };
    const message = await findMessage(tx, { accountId, id: target.id, lock: true });
    // The sender is known by number, by business-scoped user id, or both (a customer whose number appeared later).
    const sender = [revision.from, revision.fromUserId].filter((address): address is string => Boolean(address));
    if (message.direction !== "inbound" || message.senderType !== "contact" || !sender.includes(message.fromNumber)) {
      return { skipped: "revision_not_by_sender" };
    }
    const history = message.history ?? [];
    if (history.some((entry) => entry.network_message_id === revision.revisionId)) return { duplicate: true };
    if (message.deletedAt) return { skipped: "revision_of_deleted_message" };

    const now = new Date();
    const at = revision.timestamp;
    const entry: MessageRevision = {
      ...(message.text !== null ? { text: message.text } : {}),
      ...(message.media?.caption != null ? { caption: message.media.caption } : {}),
      until: at.toISOString(),
      change: revision.kind === "edit" ? "edited" : "deleted",
      network_message_id: revision.revisionId,
    };
    const nextHistory = [...history, entry];
    let preview: string;
    if (revision.kind === "edit") {
      const text = message.type === "text" && revision.text !== undefined ? revision.text : message.text;
      const caption = message.mediaId && revision.caption !== undefined ? revision.caption : undefined;
      if (text === message.text && caption === undefined) return { skipped: "revision_changes_nothing" };
      await tx.update(messages).set({ text, editedAt: at, history: nextHistory, updatedAt: now }).where(eq(messages.id, message.id));
      if (caption !== undefined && message.mediaId) {
        await tx.update(media).set({ caption }).where(and(eq(media.id, message.mediaId), eq(media.accountId, accountId)));
      }
      preview = previewOf({ type: message.type, text, caption: caption ?? message.media?.caption, content: message.content });
    } else {
      await tx
        .update(messages)
        .set({ text: null, mediaId: null, content: null, deletedAt: at, history: nextHistory, updatedAt: now })
        .where(eq(messages.id, message.id));
      if (message.mediaId) await tx.delete(media).where(and(eq(media.id, message.mediaId), eq(media.accountId, accountId)));
      preview = DELETED_PREVIEW;
    }
    if (await isLatestMessage(tx, { conversationId: message.conversationId, id: message.id })) {
      await tx.update(conversations).set({ lastMessagePreview: preview, updatedAt: now }).where(eq(conversations.id, message.conversationId));
    }

    const [conversation] = await tx
      .select({ blocked: contacts.blocked })
      .from(conversations)
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(conversations.id, message.conversationId))
      .limit(1);
    if (!conversation?.blocked) {
      const output = presentMessage(await findMessage(tx, { accountId, id: message.id }));
      await recordEvent({ ...ctx, db: tx }, { accountId, type: revision.kind === "edit" ? "message.updated" : "message.deleted", data: { message: output } });
    }
    return { applied: true };
  });
}
