import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { conversationActivities, conversations } from "@/db/schema";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { AuthContext } from "@/lib/auth/tokens";
import { NotFoundError } from "@/lib/platform/errors";
import { presentActivity } from "./schemas";

/** A conversation's activity trail, newest first (like its messages), in keyset pages. */
export async function listActivity({
  ctx,
  conversationId,
  limit,
  cursor,
}: {
  ctx: Pick<AuthContext, "accountId">;
  conversationId: string;
  limit: number;
  cursor?: CursorPosition;
}) {
  const db = getDb();
  // Checked here rather than through the conversations domain, which records activity itself.
  const [conversation] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.accountId, ctx.accountId), eq(conversations.id, conversationId)))
    .limit(1);
  if (!conversation) throw new NotFoundError("Conversation");
  const rows = await db
    .select()
    .from(conversationActivities)
    .where(
      and(
        eq(conversationActivities.accountId, ctx.accountId),
        eq(conversationActivities.conversationId, conversationId),
        afterCursor(conversationActivities, cursor, "desc"),
      ),
    )
    .orderBy(desc(conversationActivities.createdAt), desc(conversationActivities.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => ({ t: r.createdAt, id: r.id }), presentActivity);
}
