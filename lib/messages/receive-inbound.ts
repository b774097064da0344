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
import { recordSurveyAnswer, surveyScoreOf } from "@/lib/csat/answer";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/number-config";
import type { InteractiveReply } from "@/lib/network/types";
import { afterInboundMessage } from "./after-inbound";
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
  /** The customer's choice in an interactive message (stored as a text message with its title). */
  interactive?: InteractiveReply;
};

/**
 * Stores a customer's message, from the sandbox or the cloud network alike: the contact is
 * found or created (its name updated when the network gives one), the message joins the
 * contact's open or assigned conversation, else reopens the latest closed one, else starts
 * one; message.received is emitted. Idempotent on the network message id.
 * An answer to the satisfaction survey (see surveyScoreOf) joins the rated conversation without
 * reopening it or triggering an automatic answer, and emits conversation.rated.
 */
export async function receiveInboundMessage({ accountId, inbound }: { accountId: string; inbound: InboundInput }): Promise<{
  duplicate: boolean;
  message: MessageOutput;
}> {
  return getDb().transaction(async (tx) => {
    const existing = await findIdByNetworkId(tx, { accountId, networkMessageId: inbound.networkMessageId, lock: true });
    if (existing) return { duplicate: true, message: presentMessage(await findMessage(tx, { accountId, id: existing })) };

    const integration = await loadNumberIntegration(tx, accountId);
    const contact = await ensureContact(tx, { accountId, phone: inbound.from, name: inbound.name });
    const arrivedAt = new Date();
    const answer = { text: inbound.type === "text" ? inbound.text : undefined, interactive: inbound.interactive, at: arrivedAt };
    let score: number | null = null;
    let conversation = await findActiveConversation(tx, { accountId, contactId: contact.id });
    if (conversation) score = surveyScoreOf({ conversation, ...answer });
    else {
      const closed = await findLatestClosedConversation(tx, { accountId, contactId: contact.id });
      score = closed ? surveyScoreOf({ conversation: closed, ...answer }) : null;
      conversation =
        closed && score !== null
          ? closed
          : closed
            ? await reopenClosedConversation(tx, { accountId, conversation: closed, contact })
            : await createConversation(tx, { accountId, contact, at: arrivedAt });
    }

    const now = arrivedAt;
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
      unread: score === null ? "increment" : "keep",
    });
    const output = presentMessage({ ...message, media: stored });
    await recordEvent(tx, { accountId, type: "message.received", data: { message: output, conversation: conversationSummary(updated) } });
    if (score !== null) await recordSurveyAnswer(tx, { accountId, conversationId: conversation.id, contact, score, at: now });
    else await afterInboundMessage(tx, { accountId, message, conversation: updated });
    return { duplicate: false, message: output };
  });
}
