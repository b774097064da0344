import "server-only";
import { and, eq, gt } from "drizzle-orm";
import { conversations } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { queueReadReceipt } from "@/lib/conversations/customer-signals";

/**
 * The inbox opened the conversation: its unread count goes back to 0 for the whole team
 * (one shared number, one shared queue), and when it had unread customer messages the newest
 * is marked read at the network (read receipts setting; see queueReadReceipt). The API's reads
 * never do this; only the inbox asks.
 */
export async function markConversationRead({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const [exists] = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.accountId, ctx.accountId)))
      .limit(1);
    if (!exists) throw new NotFoundError("Conversation");
    const [wasUnread] = await tx
      .update(conversations)
      .set({ unreadCount: 0 })
      .where(and(eq(conversations.id, id), eq(conversations.accountId, ctx.accountId), gt(conversations.unreadCount, 0)))
      .returning({ id: conversations.id });
    if (wasUnread) await queueReadReceipt(tx, { accountId: ctx.accountId, conversationId: id });
  });
}
