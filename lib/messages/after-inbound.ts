import type { Tx } from "@/db";
import type { Conversation, Message } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue";

export type InboundContext = { accountId: string; message: Message; conversation: Conversation };

/**
 * What follows a customer's message, inside the transaction that stored it: the automatic
 * answers of the business profile run as a `message.auto-reply` job, so the network's
 * webhook is answered fast and a crash loses no answer.
 */
export async function afterInboundMessage(tx: Tx, { accountId, message, conversation }: InboundContext): Promise<void> {
  await enqueueJob(tx, {
    kind: "message.auto-reply",
    accountId,
    payload: { accountId, conversationId: conversation.id, messageId: message.id },
  });
}
