import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { conversationSummary } from "@/lib/conversations/schemas";
import {
  createConversation,
  ensureContact,
  findActiveConversation,
  findLatestClosedConversation,
  reopenClosedConversation,
} from "@/lib/conversations/store";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/ids";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/number-config";
import { afterInboundMessage } from "./after-inbound";
import { inboundMediaKind } from "./inbound-media-type";
import { type DecodedMedia, type MessageOutput, type MessageType, presentMessage, previewOf } from "./schemas";
import { findIdByNetworkId, findMessage, storeMedia, touchConversation } from "./store";

export type InboundInput = {
  /** The network's id; a second delivery with the same id is not stored again. */
  networkMessageId: string;
  from: string;
  name?: string;
  type: MessageType;
  text?: string;
  media?: DecodedMedia;
  /** Set when the customer's media could not be fetched: the message is kept without it. */
  error?: { code: string; message: string };
};

/**
 * Stores a customer's message, from the sandbox or the cloud network alike: the contact is
 * found or created (its name updated when the network gives one), the message joins the
 * contact's open or assigned conversation, else reopens the latest closed one, else starts
 * one; message.received is emitted. Idempotent on the network message id.
 */
export async function receiveInboundMessage({ accountId, inbound }: { accountId: string; inbound: InboundInput }): Promise<{
  duplicate: boolean;
  message: MessageOutput;
}> {
  if (inbound.media) {
    // The type the network (or a simulated customer) declared is not trusted: the bytes decide.
    const kind = inboundMediaKind({ bytes: inbound.media.bytes, declared: inbound.media.mimeType });
    inbound = { ...inbound, type: kind.type, media: { ...inbound.media, mimeType: kind.mimeType } };
  }
  return getDb().transaction(async (tx) => {
    const existing = await findIdByNetworkId(tx, { accountId, networkMessageId: inbound.networkMessageId, lock: true });
    if (existing) return { duplicate: true, message: presentMessage(await findMessage(tx, { accountId, id: existing })) };

    const integration = await loadNumberIntegration(tx, accountId);
    const contact = await ensureContact(tx, { accountId, phone: inbound.from, name: inbound.name });
    let conversation = await findActiveConversation(tx, { accountId, contactId: contact.id });
    if (!conversation) {
      const closed = await findLatestClosedConversation(tx, { accountId, contactId: contact.id });
      conversation = closed
        ? await reopenClosedConversation(tx, { accountId, conversation: closed, contact })
        : await createConversation(tx, { accountId, contact, at: new Date() });
    }

    const now = new Date();
    const stored = inbound.media ? await storeMedia(tx, { accountId, file: inbound.media, at: now }) : null;
    const [message] = await tx
      .insert(messages)
      .values({
        id: newId("message", now),
        accountId,
        conversationId: conversation.id,
        direction: "inbound",
        fromNumber: inbound.from,
        toNumber: businessNumberOf(integration),
        type: inbound.type,
        text: inbound.text ?? null,
        mediaId: stored?.id ?? null,
        status: "received",
        senderType: "contact",
        error: inbound.error ?? null,
        networkMessageId: inbound.networkMessageId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const updated = await touchConversation(tx, {
      conversationId: conversation.id,
      at: now,
      preview: previewOf({ type: inbound.type, text: inbound.text, caption: inbound.media?.caption }),
      unread: "increment",
    });
    const output = presentMessage({ ...message, media: stored });
    await recordEvent(tx, { accountId, type: "message.received", data: { message: output, conversation: conversationSummary(updated) } });
    await afterInboundMessage(tx, { accountId, message, conversation: updated });
    return { duplicate: false, message: output };
  });
}
