import type { Tx } from "@/db";
import type { Conversation, Message } from "@/db/schema";

export type InboundContext = { accountId: string; message: Message; conversation: Conversation };

/**
 * Hook point for what follows a customer's message (the automatic replies of the business
 * profile), called inside the transaction that stored the message. Work that leaves the
 * process must be enqueued here as a job (e.g. kind "message.auto-reply"), not done inline.
 * Nothing is attached yet.
 */
export async function afterInboundMessage(tx: Tx, inbound: InboundContext): Promise<void> {
  void tx;
  void inbound;
}
