import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { conversations } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { AuthContext } from "@/lib/auth/tokens";
import { presentConversation } from "@/lib/conversations/schemas";
import { joinContact, selectConversations } from "@/lib/conversations/store";

/** The contact's conversations, newest first (the contact page). */
export async function listContactConversations({ ctx, contactId, limit, cursor }: { ctx: Pick<AuthContext, "accountId">; contactId: string; limit: number; cursor?: CursorPosition }) {
  const rows = await selectConversations(getDb())
    .where(and(eq(conversations.accountId, ctx.accountId), eq(conversations.contactId, contactId), afterCursor(conversations, cursor, "desc")))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(limit + 1);
  return toPage(rows.map(joinContact), limit, (c) => ({ t: c.createdAt, id: c.id }), presentConversation);
}
