import type { SystemContext } from "@/lib/auth/context";
import { ensureContact, findLatestUnsnoozedConversation, insertOpenConversation } from "@/lib/conversations/store";
import type { HistoryMessage } from "@/lib/network/types";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import type { MessageKindContent } from "./kinds";
import { previewOf } from "./schemas";
import { findIdByNetworkId, insertMessage, lookupMessage, mediaNotSynced, openServiceWindow, setReaction, touchConversationWithPast } from "./store";

/**
 * Imports one past message of a number in coexistence (`history` notification): stored with
 * its own time in the customer's latest conversation (or a new one), without events, unread
 * counts or automatic answers: it is the past, not news. Media stay on the phone (the message
 * says so). Idempotent on the network message id.
 */
export async function importHistoryMessage(ctx: SystemContext, { accountId, message: item }: { accountId: string; message: HistoryMessage }): Promise<{ imported: boolean }> {
  const { message, direction, thread } = item;
  return ctx.db.transaction(async (tx) => {
    if (await findIdByNetworkId(tx, { accountId, networkMessageId: message.networkMessageId, lock: true })) return { imported: false };
    const integration = await loadNumberIntegration(tx, accountId);
    const contact = await ensureContact(tx, { accountId, phone: thread, name: direction === "inbound" ? message.name : undefined });

    if (message.type === "reaction" && message.reaction) {
      const target = await lookupMessage(tx, { accountId, lookup: { networkMessageId: message.reaction.networkMessageId }, contactPhone: thread });
      if (!target) return { imported: false };
      await setReaction(tx, { messageId: target.id, reaction: { emoji: message.reaction.emoji, from: direction === "inbound" ? thread : businessNumberOf(integration) } });
      return { imported: true };
    }

    const at = message.timestamp;
    const conversation =
      (await findLatestUnsnoozedConversation(tx, { accountId, contactId: contact.id })) ?? (await insertOpenConversation(tx, { accountId, contactId: contact.id, at }));
    const quoted = message.context ? await lookupMessage(tx, { accountId, lookup: message.context, contactPhone: thread }) : undefined;
    const content = message.content as MessageKindContent | undefined;
    const isMedia = Boolean(message.media);
    const business = businessNumberOf(integration);
    await insertMessage(tx, {
      at,
      accountId,
      conversationId: conversation.id,
      direction,
      fromNumber: direction === "inbound" ? thread : business,
      toNumber: direction === "inbound" ? business : thread,
      type: message.type,
      text: message.text ?? null,
      mediaId: null,
      status: direction === "inbound" ? "received" : (item.status ?? "sent"),
      senderType: direction === "inbound" ? "contact" : "user",
      senderUserId: null,
      error: isMedia ? mediaNotSynced("Imported from the business app's history", message.media?.caption) : null,
      networkMessageId: message.networkMessageId,
      content: content ?? null,
      contextMessageId: quoted?.id ?? null,
    });
    // The preview follows the newest message; an older one from the past leaves it.
    const preview = previewOf({ type: message.type, text: message.text, caption: message.media?.caption, content });
    await touchConversationWithPast(tx, { conversationId: conversation.id, at, preview });
    if (direction === "inbound") await openServiceWindow(tx, { conversationId: conversation.id, sentAt: at });
    return { imported: true };
  });
}
