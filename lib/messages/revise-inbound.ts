import type { SystemContext } from "@/lib/auth/context";
import type { MessageRevision } from "@/db/schema";
import { recordEvent } from "@/lib/events/record-event";
import type { InboundRevision } from "@/lib/network/types";
import { findConversationContactBlocked } from "@/lib/conversations/store";
import { presentMessage, previewOf } from "./schemas";
import { editMessageText, eraseMessage, findIdByNetworkId, findMessage, isLatestMessage, setConversationPreview, setMediaCaption } from "./store";

/** What an inbox row shows when the latest message was deleted. */
export const DELETED_PREVIEW = "Message deleted";

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
    const targetId = await findIdByNetworkId(tx, { accountId, networkMessageId: revision.networkMessageId });
    if (!targetId) return { skipped: "revision_target_unknown" };
    const message = await findMessage(tx, { accountId, id: targetId, lock: true });
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
      await editMessageText(tx, { id: message.id, text, at, history: nextHistory, now });
      if (caption !== undefined && message.mediaId) await setMediaCaption(tx, { accountId, id: message.mediaId, caption });
      preview = previewOf({ type: message.type, text, caption: caption ?? message.media?.caption, content: message.content });
    } else {
      await eraseMessage(tx, { accountId, message, at, now, history: nextHistory });
      preview = DELETED_PREVIEW;
    }
    if (await isLatestMessage(tx, { conversationId: message.conversationId, id: message.id })) {
      await setConversationPreview(tx, { conversationId: message.conversationId, preview, at: now });
    }

    if (!(await findConversationContactBlocked(tx, { conversationId: message.conversationId }))) {
      const output = presentMessage(await findMessage(tx, { accountId, id: message.id }));
      await recordEvent({ ...ctx, db: tx }, { accountId, type: revision.kind === "edit" ? "message.updated" : "message.deleted", data: { message: output } });
    }
    return { applied: true };
  });
}
