import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { recordEvent } from "@/lib/events/record-event";
import { presentUserRef } from "@/lib/auth/user-identity";
import { queueTypingIndicator } from "./customer-signals";
import { findConversation } from "./store";

/**
 * Tells the teammates watching the inbox that the caller is writing in this conversation:
 * an `agent.typing` event for the live stream only (never for webhooks). The inbox sends it
 * at most every few seconds while someone types and shows it for 6 s after the last one.
 * The customer sees the network's typing indicator too (setting; see queueTypingIndicator).
 */
export async function announceTyping({ ctx, conversationId }: { ctx: ServiceContext<"user">; conversationId: string }) {
  await ctx.db.transaction(async (tx) => {
    const conversation = await findConversation(tx, { accountId: ctx.accountId, id: conversationId });
    await recordEvent({ ...ctx, db: tx }, {
      accountId: ctx.accountId,
      type: "agent.typing",
      data: { conversation_id: conversation.id, user: presentUserRef(ctx.user) },
    });
    await queueTypingIndicator(tx, { accountId: ctx.accountId, conversationId: conversation.id });
  });
}
