import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { conversationNotes, users } from "@/db/schema";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { AuthContext } from "@/lib/auth/tokens";
import { findConversation } from "@/lib/conversations/store";
import { presentNote } from "./schemas";

/** A conversation's notes, newest first (like its messages), in keyset pages. */
export async function listNotes({
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
  await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  const rows = await db
    .select({ note: conversationNotes, author: { id: users.id, name: users.name } })
    .from(conversationNotes)
    .innerJoin(users, eq(users.id, conversationNotes.authorId))
    .where(
      and(
        eq(conversationNotes.accountId, ctx.accountId),
        eq(conversationNotes.conversationId, conversationId),
        afterCursor(conversationNotes, cursor, "desc"),
      ),
    )
    .orderBy(desc(conversationNotes.createdAt), desc(conversationNotes.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => ({ t: r.note.createdAt, id: r.note.id }), (r) => presentNote(r.note, r.author));
}
