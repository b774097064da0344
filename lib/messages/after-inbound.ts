import type { Tx } from "@/db";
import type { VerbContext } from "@/lib/auth/context";
import type { Conversation, Message } from "@/db/schema";
import { handleOptOutKeyword } from "@/lib/campaigns/opt-out";
import { enqueueJob } from "@/lib/jobs/enqueue";

type InboundMessageAndConversation = { message: Message; conversation: Conversation };

/**
 * What follows a customer's message, inside the transaction that stored it: an opt-out
 * keyword takes the contact off marketing (lib/campaigns/opt-out.ts), and the automatic
 * answers of the business profile run as a `message.auto-reply` job, so the network's
 * webhook is answered fast and a crash loses no answer.
 */
export async function afterInboundMessage(ctx: Pick<VerbContext, "accountId"> & { db: Tx }, { message, conversation }: InboundMessageAndConversation): Promise<void> {
  const { accountId, db: tx } = ctx;
  // An opt-out keyword is answered with its confirmation; the automatic answers still run.
  await handleOptOutKeyword(tx, { accountId, message, conversation });
  await enqueueJob(tx, {
    kind: "message.auto-reply",
    accountId,
    payload: { accountId, conversationId: conversation.id, messageId: message.id },
  });
}
