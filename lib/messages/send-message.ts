import { type Executor, getDb } from "@/db";
import { messages } from "@/db/schema";
import type { AuthContext } from "@/lib/auth/tokens";
import { actor } from "@/lib/conversations/conversations";
import { createConversation, ensureContact, findActiveConversation, findConversation, reopenClosedConversation } from "@/lib/conversations/store";
import { invalidField } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue";
import type { SendAutomatedMessage } from "@/lib/profile/auto-replies";
import { businessNumberOf, loadNumberIntegration } from "@/lib/network/number-config";
import { presentMessage, previewOf, type SendMessageInput } from "./schemas";
import { storeMedia, touchConversation } from "./store";

type Ctx = Pick<AuthContext, "accountId" | "user">;

/**
 * Records a message from the calling user as `queued` and, in the same transaction, the job
 * that sends it to the network. The conversation is the given one, else the number's open
 * (or assigned) conversation, else a new one. Sending into a closed conversation reopens it.
 */
export async function sendMessage({ ctx, input }: { ctx: Ctx; input: SendMessageInput }) {
  return getDb().transaction(async (tx) => {
    const accountId = ctx.accountId;
    const integration = await loadNumberIntegration(tx, accountId);
    let conversationId: string;
    if (input.conversation_id) {
      const conversation = await findConversation(tx, { accountId, id: input.conversation_id, lock: true });
      if (conversation.contact.phone !== input.to) {
        throw invalidField("conversation_id", `is a conversation with ${conversation.contact.phone}, not with ${input.to}`);
      }
      if (conversation.status === "closed") {
        await reopenClosedConversation(tx, { accountId, conversation, contact: conversation.contact, user: actor(ctx) });
      }
      conversationId = conversation.id;
    } else {
      const contact = await ensureContact(tx, { accountId, phone: input.to });
      const active = await findActiveConversation(tx, { accountId, contactId: contact.id });
      conversationId = active ? active.id : (await createConversation(tx, { accountId, contact, at: new Date() })).id;
    }

    return queueOutboundMessage(tx, {
      accountId,
      conversationId,
      from: businessNumberOf(integration),
      to: input.to,
      type: input.type,
      text: input.text ?? null,
      media: input.media,
      sender: { type: "user", userId: ctx.user.id },
    });
  });
}

/**
 * Stores an outbound message as `queued` and enqueues its `message.send` job, in the caller's
 * transaction: the one send path for people (sendMessage) and for automatic answers.
 */
export async function queueOutboundMessage(
  tx: Executor,
  input: {
    accountId: string;
    conversationId: string;
    from: string;
    to: string;
    type: SendMessageInput["type"];
    text: string | null;
    media?: SendMessageInput["media"];
    sender: { type: "user"; userId: string } | { type: "automation" };
  },
) {
  const now = new Date();
  const stored = input.media ? await storeMedia(tx, { accountId: input.accountId, file: input.media, at: now }) : null;
  const [message] = await tx
    .insert(messages)
    .values({
      id: newId("message", now),
      accountId: input.accountId,
      conversationId: input.conversationId,
      direction: "outbound",
      fromNumber: input.from,
      toNumber: input.to,
      type: input.type,
      text: input.text,
      mediaId: stored?.id ?? null,
      status: "queued",
      senderType: input.sender.type,
      senderUserId: input.sender.type === "user" ? input.sender.userId : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await touchConversation(tx, {
    conversationId: input.conversationId,
    at: now,
    // The inbox row keeps showing the customer's words under an automatic answer.
    preview: input.sender.type === "automation" ? null : previewOf({ type: input.type, text: input.text ?? undefined, caption: input.media?.caption }),
    // A person's reply means the conversation was read; an automatic answer does not.
    unread: input.sender.type === "user" ? "reset" : "keep",
  });
  await enqueueJob(tx, { kind: "message.send", accountId: input.accountId, payload: { messageId: message.id } });
  return presentMessage({ ...message, media: stored });
}

/** The automatic answers' send path (business profile): a text from "automation". */
export const sendAutomatedMessage: SendAutomatedMessage = async ({ tx, accountId, conversationId, to, text }) => {
  const integration = await loadNumberIntegration(tx, accountId);
  return queueOutboundMessage(tx, {
    accountId,
    conversationId,
    from: businessNumberOf(integration),
    to,
    type: "text",
    text,
    sender: { type: "automation" },
  });
};
