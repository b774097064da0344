import { slaOnPersonReply } from "@/lib/sla/sla";
import type { Executor } from "@/db";
import type { ServiceContext, VerbContext } from "@/lib/auth/context";
import { userActor } from "@/lib/activity/schemas";
import { autoAssignOnReply } from "@/lib/conversations/auto-assign";
import { contactAddress } from "@/lib/contacts/identity";
import { refuseBlockedContact } from "@/lib/contacts/blocked";
import { actor } from "@/lib/conversations/conversations";
import { ensureContact, findActiveConversation, findConversation } from "@/lib/conversations/store";
import { createConversation, reopenClosedConversation } from "@/lib/conversations/start-conversation";
import { ApiError, invalidField } from "@/lib/platform/errors";
import { enqueueJob } from "@/lib/jobs/enqueue";
import type { SendAutomatedMessage } from "@/lib/auto-replies/auto-replies";
import type { OutboundList } from "@/lib/network/types";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/integration";
import { prepareTemplateSend } from "@/lib/templates/templates";
import type { MessageKindContent } from "./kinds";
import { type DecodedMedia, presentMessage, previewOf, type SendMessageInput } from "./schemas";
import { findMessageSummary, findServiceWindow, insertMessage, setReaction, storeMedia, touchConversation } from "./store";

/**
 * Records a message from the calling user as `queued` and, in the same transaction, the job
 * that sends it to the network. The recipient is named one way: a conversation (its customer,
 * by number when known, else by business-scoped user id), a number (`to`) or a business-scoped
 * user id (`to_user_id`), whose open (or assigned) conversation is used, else a new one.
 * Sending into a closed conversation reopens it; sending into an unassigned one assigns it to
 * the sender (the account's auto-assign setting). A blocked contact gets nothing (409).
 */
export async function sendMessage({ ctx, input }: { ctx: ServiceContext<"user">; input: SendMessageInput }) {
  return ctx.db.transaction(async (tx) => {
    const accountId = ctx.accountId;
    const integration = await loadNumberIntegration(tx, accountId);
    let conversationId: string;
    let to: string;
    if (input.conversation_id) {
      const conversation = await findConversation(tx, { accountId, id: input.conversation_id, lock: true });
      refuseBlockedContact(conversation.contact);
      if (conversation.status === "closed") {
        await reopenClosedConversation({ ...ctx, db: tx }, { accountId, conversation, contact: conversation.contact, user: actor(ctx) });
      }
      conversationId = conversation.id;
      to = contactAddress(conversation.contact);
    } else {
      const contact = await ensureContact(tx, { accountId, ...(input.to ? { phone: input.to } : { userId: input.to_user_id }) });
      refuseBlockedContact(contact);
      to = input.to ?? input.to_user_id ?? contactAddress(contact);
      const active = await findActiveConversation(tx, { accountId, contactId: contact.id });
      conversationId = active
        ? active.id
        : (await createConversation({ ...ctx, db: tx }, { accountId, contact, at: new Date(), actor: userActor(ctx.user) })).id;
    }
    await autoAssignOnReply({ ...ctx, db: tx }, { conversationId });
    await slaOnPersonReply({ accountId, db: tx }, { conversationId, userId: ctx.user.id, at: new Date() });

    const windowEnd = await findServiceWindow(tx, { conversationId });
    // A customer who never wrote has no window yet: the first message is the network's call.
    if (input.type !== "template" && windowEnd && windowEnd.getTime() <= Date.now()) {
      throw new ApiError(
        409,
        "outside_service_window",
        `The customer's last message is more than 24 hours old (the window closed at ${windowEnd.toISOString()}): only a template can reach them now.`,
      );
    }

    const checked = await checkKindInput(tx, { accountId, conversationId, input });
    return queueOutboundMessage({ accountId, db: tx }, {
      conversationId,
      from: businessNumberOf(integration),
      to,
      type: input.type,
      text: checked.text ?? input.text ?? null,
      media: checked.media ?? input.media,
      content: checked.content,
      contextMessageId: input.context?.message_id,
      sender: { type: "user", userId: ctx.user.id },
    });
  });
}

/** A message of this conversation, or a 400 naming `field`. */
async function messageOfConversation(tx: Executor, { accountId, conversationId, id, field }: { accountId: string; conversationId: string; id: string; field: string }) {
  const row = await findMessageSummary(tx, { accountId, id });
  if (!row || row.conversationId !== conversationId) throw invalidField(field, "is not a message of this conversation");
  return row;
}

/**
 * The checks of the kinds beyond text and media, against the stored data: a quoted or
 * reacted-to message must belong to the conversation, a template must exist, be APPROVED and
 * get its number of values. Returns what is stored (`content`, and a template's rendered text).
 */
async function checkKindInput(
  tx: Executor,
  { accountId, conversationId, input }: { accountId: string; conversationId: string; input: SendMessageInput },
): Promise<{ content?: MessageKindContent; text?: string; media?: DecodedMedia }> {
  if (input.context) await messageOfConversation(tx, { accountId, conversationId, id: input.context.message_id, field: "context.message_id" });
  switch (input.type) {
    case "location":
      return { content: { location: input.location! } };
    case "interactive":
      return { content: { interactive: input.interactive! } };
    case "reaction": {
      const target = await messageOfConversation(tx, { accountId, conversationId, id: input.reaction!.message_id, field: "reaction.message_id" });
      if (target.type === "reaction") throw invalidField("reaction.message_id", "is a reaction; react to a message");
      return { content: { reaction: input.reaction! } };
    }
    case "template": {
      // A media header's file is stored with the message and shown in its bubble.
      const prepared = await prepareTemplateSend(tx, { accountId, template: input.template! });
      return { content: { template: prepared.content }, text: prepared.text, ...(prepared.media ? { media: prepared.media } : {}) };
    }
    default:
      return {};
  }
}

/**
 * Stores an outbound message as `queued` and enqueues its `message.send` job, in the caller's
 * transaction: the one send path for people (sendMessage) and for automatic answers.
 */
export async function queueOutboundMessage(
  ctx: Pick<VerbContext, "accountId" | "db">,
  input: {
    conversationId: string;
    from: string;
    to: string;
    type: SendMessageInput["type"];
    text: string | null;
    media?: SendMessageInput["media"];
    /** location, reaction, interactive or template: what the kind carries. */
    content?: MessageKindContent;
    contextMessageId?: string;
    sender: { type: "user"; userId: string } | { type: "automation" };
    /** Sent as an interactive list; the message keeps `text` (the list's body) for the thread. */
    interactive?: OutboundList;
  },
) {
  const { accountId, db: tx } = ctx;
  const now = new Date();
  const stored = input.media ? await storeMedia(tx, { accountId: accountId, file: input.media, at: now }) : null;
  const message = await insertMessage(tx, {
    at: now,
    accountId: accountId,
    conversationId: input.conversationId,
    direction: "outbound",
    fromNumber: input.from,
    toNumber: input.to,
    type: input.type,
    text: input.text,
    mediaId: stored?.id ?? null,
    content: input.content ?? null,
    contextMessageId: input.contextMessageId ?? null,
    status: "queued",
    senderType: input.sender.type,
    senderUserId: input.sender.type === "user" ? input.sender.userId : null,
  });
  if (input.type === "reaction" && input.content?.reaction) {
    // Shown on the message reacted to at once; the network carries it with the send.
    await setReaction(tx, { messageId: input.content.reaction.message_id, reaction: { emoji: input.content.reaction.emoji, from: input.from } });
  }
  await touchConversation(tx, {
    conversationId: input.conversationId,
    at: now,
    // The inbox row keeps showing the customer's words under an automatic answer.
    preview:
      input.sender.type === "automation"
        ? null
        : previewOf({ type: input.type, text: input.text ?? undefined, caption: input.media?.caption, content: input.content }),
    // A person's reply means the conversation was read; an automatic answer does not.
    unread: input.sender.type === "user" ? "reset" : "keep",
  });
  await enqueueJob(tx, {
    kind: "message.send",
    accountId: accountId,
    payload: { messageId: message.id, ...(input.interactive ? { interactive: input.interactive } : {}) },
  });
  return presentMessage({ ...message, media: stored });
}

/** The automatic answers' send path (business profile): a text from "automation". */
export const sendAutomatedMessage: SendAutomatedMessage = async ({ tx, accountId, conversationId, to, text }) => {
  const integration = await loadNumberIntegration(tx, accountId);
  return queueOutboundMessage({ accountId, db: tx }, {
    conversationId,
    from: businessNumberOf(integration),
    to,
    type: "text",
    text,
    sender: { type: "automation" },
  });
};
