import type { Tx } from "@/db";
import type { Conversation, Message } from "@/db/schema";
import { handleOptOutKeyword } from "@/lib/campaigns/opt-out";
import { enqueueJob } from "@/lib/jobs/enqueue";

export type InboundContext = { accountId: string; message: Message; conversation: Conversation };

/**
 * What follows a customer's message, inside the transaction that stored it: an opt-out
 * keyword takes the contact off marketing (lib/campaigns/opt-out.ts), and the automatic
 * answers of the business profile run as a `message.auto-reply` job, so the network's
 * webhook is answered fast and a crash loses no answer.
 */
export async function afterInboundMessage(tx: Tx, { accountId, message, conversation }: InboundContext): Promise<void> {
  // An opt-out keyword is answered with its confirmation; the automatic answers still run.
  await handleOptOutKeyword(tx, { accountId, message, conversation });
  await enqueueJob(tx, {
    kind: "message.auto-reply",
    accountId,
    payload: { accountId, conversationId: conversation.id, messageId: message.id },
  });
}
