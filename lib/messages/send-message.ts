import { getDb } from "@/db";
import { messages } from "@/db/schema";
import type { AuthContext } from "@/lib/auth/tokens";
import { actor } from "@/lib/conversations/conversations";
import { createConversation, ensureContact, findActiveConversation, findConversation, reopenClosedConversation } from "@/lib/conversations/store";
import { invalidField } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue";
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

    const now = new Date();
    const stored = input.media ? await storeMedia(tx, { accountId, file: input.media, at: now }) : null;
    const [message] = await tx
      .insert(messages)
      .values({
        id: newId("message", now),
        accountId,
        conversationId,
        direction: "outbound",
        fromNumber: businessNumberOf(integration),
        toNumber: input.to,
        type: input.type,
        text: input.text ?? null,
        mediaId: stored?.id ?? null,
        status: "queued",
        senderType: "user",
        senderUserId: ctx.user.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await touchConversation(tx, {
      conversationId,
      at: now,
      preview: previewOf({ type: input.type, text: input.text, caption: input.media?.caption }),
      unread: "reset",
    });
    await enqueueJob(tx, { kind: "message.send", accountId, payload: { messageId: message.id } });
    return presentMessage({ ...message, media: stored });
  });
}
