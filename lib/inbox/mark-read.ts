import "server-only";
import { and, eq, gt } from "drizzle-orm";
import { getDb } from "@/db";
import { conversations } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";

/**
 * The inbox opened the conversation: its unread count goes back to 0 for the whole team
 * (one shared number, one shared queue). The API's reads never do this; only the inbox asks.
 */
export async function markConversationRead({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const db = getDb();
  const [exists] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.accountId, ctx.accountId)))
    .limit(1);
  if (!exists) throw new NotFoundError("Conversation");
  await db
    .update(conversations)
    .set({ unreadCount: 0 })
    .where(and(eq(conversations.id, id), eq(conversations.accountId, ctx.accountId), gt(conversations.unreadCount, 0)));
}
