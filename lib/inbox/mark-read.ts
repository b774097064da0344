import "server-only";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { queueReadReceipt } from "@/lib/conversations/customer-signals";
import { clearUnreadCount, conversationExists } from "./store";

/**
 * The inbox opened the conversation: its unread count goes back to 0 for the whole team
 * (one shared number, one shared queue), and when it had unread customer messages the newest
 * is marked read at the network (read receipts setting; see queueReadReceipt). The API's reads
 * never do this; only the inbox asks.
 */
export async function markConversationRead({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    if (!(await conversationExists(tx, { accountId: ctx.accountId, id }))) throw new NotFoundError("Conversation");
    const wasUnread = await clearUnreadCount(tx, { accountId: ctx.accountId, id });
    if (wasUnread) await queueReadReceipt(tx, { accountId: ctx.accountId, conversationId: id });
  });
}
