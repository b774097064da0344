import { detectMessageLanguage } from "@/lib/platform/language/detect";
import type { SystemContext } from "@/lib/auth/context";
import type { Conversation } from "@/db/schema";
import { conversationSummary } from "@/lib/conversations/schemas";
import { ensureContact, findActiveConversation, findLatestClosedConversation, lockConversationRow } from "@/lib/conversations/store";
import { createConversation, reopenClosedConversation } from "@/lib/conversations/start-conversation";
import { wakeSnoozedConversation } from "@/lib/conversations/snooze";
import { invalidField } from "@/lib/platform/errors";
import { isNetworkUserId } from "@/lib/platform/fields";
import { recordEvent } from "@/lib/events/record-event";
import { workflowOnCustomerMessage } from "@/lib/teams/routing";
import { contactAddress } from "@/lib/contacts/identity";
import { upsertContactName } from "@/lib/contacts/store";
import { recordSurveyAnswer, surveyScoreOf } from "@/lib/conversations/survey-answer";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import type { InteractiveReply } from "@/lib/network/types";
import { afterInboundMessage } from "./after-inbound";
import { thankForSurveyAnswer } from "./send-survey";
import { inboundMediaKind } from "./inbound-media-type";
import type { MessageKindContent } from "./kinds";
import { type DecodedMedia, type MessageKind, type MessageOutput, presentMessage, previewOf } from "./schemas";
import { findIdByNetworkId, findMessage, insertMessage, lookupMessage, type MessageLookup, openServiceWindow, setReaction, storeMedia, touchConversation } from "./store";

export type InboundInput = {
  /** The network's id; a second delivery with the same id is not stored again. */
  networkMessageId: string;
  /** The customer's address: their number, or their business-scoped user id when the network gave no number. */
  from: string;
  /** The customer's number and business-scoped user id as the network gave them (default: `from`, whichever it is). */
  phone?: string;
  userId?: string;
  username?: string;
  name?: string;
  type: MessageKind;
  text?: string;
  media?: DecodedMedia;
  /** What a kind other than text and media carries (location, contacts, interactive…). */
  content?: MessageKindContent;
  /** The message this one quotes. */
  context?: MessageLookup;
  /** For a reaction: the message reacted to and the emoji ("" removes the customer's reaction). */
  reaction?: { target: MessageLookup; emoji: string };
  /** When the customer sent it, by the network's clock: the 24-hour window counts from here. */
  sentAt?: Date;
  /** Set when the customer's media could not be fetched: the message is kept without it. */
  error?: { code: string; message: string };
  /** The customer's choice in an interactive message (stored as a text message with its title). */
  interactive?: InteractiveReply;
};

export type InboundResult = { duplicate: boolean; message: MessageOutput } | { skipped: string };

/**
 * Stores a customer's message, from the sandbox or the cloud network alike: the contact is
 * found or created (its name updated when the network gives one), the message joins the
 * contact's open or assigned conversation, else reopens the latest closed one, else starts
 * one; the conversation's 24-hour window moves; message.received is emitted. A reaction is
 * stored as a `reaction` message in the conversation of the message it reacts to and shows on
 * that message's `reactions` (it reopens nothing and counts as no unread message). Idempotent
 * on the network message id.
 * An answer to the satisfaction survey (see surveyScoreOf) joins the rated conversation without
 * reopening it or triggering an automatic answer, and emits conversation.rated.
 */
export async function receiveInboundMessage(ctx: SystemContext, { accountId, inbound }: { accountId: string; inbound: InboundInput }): Promise<InboundResult> {
  if (inbound.media) {
    // The type the network (or a simulated customer) declared is not trusted: the bytes decide.
    const kind = inboundMediaKind({ bytes: inbound.media.bytes, declared: inbound.media.mimeType });
    // A sticker stays a sticker when its bytes are the WebP image stickers are.
    const type = inbound.type === "sticker" && kind.mimeType === "image/webp" ? "sticker" : kind.type;
    inbound = { ...inbound, type, media: { ...inbound.media, mimeType: kind.mimeType } };
  }
  return ctx.db.transaction(async (tx) => {
    const inTx = { ...ctx, db: tx };
    const existing = await findIdByNetworkId(tx, { accountId, networkMessageId: inbound.networkMessageId, lock: true });
    if (existing) return { duplicate: true, message: presentMessage(await findMessage(tx, { accountId, id: existing })) };

    const integration = await loadNumberIntegration(tx, accountId);
    // A Chorus id comes from the sandbox's caller, so an unknown one is their mistake (400);
    // an unknown network id is a message Chorus never saw, and the reaction has nothing to show on.
    const identity = identityOf(inbound);
    const addresses = [identity.phone, identity.userId, inbound.from].filter((a): a is string => Boolean(a));
    const target = inbound.reaction ? await lookupMessage(tx, { accountId, lookup: inbound.reaction.target, contactPhone: addresses }) : undefined;
    if (inbound.reaction && !target) {
      if (inbound.reaction.target.messageId) throw invalidField("reaction.message_id", "is not a message of this customer's conversations");
      return { skipped: "reaction_target_unknown" };
    }
    const quoted = inbound.context ? await lookupMessage(tx, { accountId, lookup: inbound.context, contactPhone: addresses }) : undefined;
    if (inbound.context?.messageId && !quoted) throw invalidField("context.message_id", "is not a message of this customer's conversations");

    const contact = await ensureContact(tx, { accountId, ...identity, name: inbound.name });
    // A blocked contact's message is kept where it belongs but wakes, reopens and notifies nothing.
    const silent = contact.blocked;
    const arrivedAt = new Date();
    // A list choice arrives as `interactive` content (network) or as the survey's own field (sandbox).
    const interactive = inbound.interactive ?? (inbound.content as { interactive?: InteractiveReply } | undefined)?.interactive;
    const answer = { text: inbound.type === "text" ? inbound.text : undefined, interactive, at: arrivedAt };
    let score: number | null = null;
    let conversation: Conversation | undefined;
    if (target) {
      conversation = await lockConversationRow(tx, { id: target.conversationId });
    } else {
      conversation = await findActiveConversation(tx, { accountId, contactId: contact.id });
      if (conversation && !silent) score = surveyScoreOf({ conversation, ...answer });
      if (conversation?.status === "snoozed" && !silent && score === null) conversation = await wakeSnoozedConversation(inTx, { accountId, conversation, contact });
      if (!conversation) {
        const closed = await findLatestClosedConversation(tx, { accountId, contactId: contact.id });
        score = closed && !silent ? surveyScoreOf({ conversation: closed, ...answer }) : null;
        conversation = closed
          ? silent || score !== null
            ? closed
            : await reopenClosedConversation(inTx, { accountId, conversation: closed, contact })
          : await createConversation(inTx, { accountId, contact, at: arrivedAt, closed: silent });
      }
    }

    const now = arrivedAt;
    const content: MessageKindContent | undefined =
      inbound.reaction && target ? { reaction: { message_id: target.id, emoji: inbound.reaction.emoji } } : inbound.content;
    const stored = inbound.media ? await storeMedia(tx, { accountId, file: inbound.media, at: now }) : null;
    const message = await insertMessage(tx, {
      at: now,
      accountId,
      conversationId: conversation.id,
      direction: "inbound",
      fromNumber: inbound.from,
      toNumber: businessNumberOf(integration),
      type: inbound.type,
      text: inbound.text ?? null,
      language: detectMessageLanguage(inbound.text ?? inbound.media?.caption),
      mediaId: stored?.id ?? null,
      status: "received",
      senderType: "contact",
      error: inbound.error ?? null,
      networkMessageId: inbound.networkMessageId,
      content: content ?? null,
      contextMessageId: quoted?.id ?? null,
    });
    if (inbound.reaction && target) {
      await setReaction(tx, { messageId: target.id, reaction: { emoji: inbound.reaction.emoji, from: inbound.from } });
    }
    await touchConversation(tx, {
      conversationId: conversation.id,
      at: now,
      preview: previewOf({ type: inbound.type, text: inbound.text, caption: inbound.media?.caption, content }),
      unread: silent || inbound.reaction || score !== null ? "keep" : "increment",
    });
    const updated = await openServiceWindow(tx, { conversationId: conversation.id, sentAt: inbound.sentAt ?? now });
    const output = presentMessage({ ...message, media: stored });
    if (silent) return { duplicate: false, message: output };
    await recordEvent(inTx, { accountId, type: "message.received", data: { message: output, conversation: conversationSummary(updated) } });
    if (score !== null) {
      const rated = await recordSurveyAnswer(inTx, { accountId, conversationId: conversation.id, contact, score, at: now });
      if (rated) await thankForSurveyAnswer({ accountId, db: tx }, { conversationId: conversation.id, from: businessNumberOf(integration), to: contactAddress(contact) });
    } else if (!inbound.reaction) {
      await workflowOnCustomerMessage(inTx, { accountId, conversationId: conversation.id, at: now });
      await afterInboundMessage({ accountId, db: tx }, { message, conversation: updated });
    }
    return { duplicate: false, message: output };
  });
}

/** Who wrote, by the ids the network gave; `from` alone is a number or a business-scoped user id by its form. */
function identityOf(inbound: InboundInput) {
  const fromIsUserId = isNetworkUserId(inbound.from);
  return {
    phone: inbound.phone ?? (fromIsUserId ? undefined : inbound.from),
    userId: inbound.userId ?? (fromIsUserId ? inbound.from : undefined),
    username: inbound.username,
  };
}

/** A contact's name as the business app's address book has it (coexistence contact sync). */
export async function syncContactName(ctx: SystemContext, { accountId, phone, name }: { accountId: string; phone: string; name: string | null }) {
  await upsertContactName(ctx.db, { accountId, phone, name });
}
