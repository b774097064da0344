import { eq } from "drizzle-orm";
import { conversationNotes, users } from "@/db/schema";
import { executorOf, type ServiceContext } from "@/lib/auth/context";
import type { CursorPosition } from "@/lib/api/cursor";
import { findConversation } from "@/lib/conversations/store";
import { keysetPage } from "@/lib/platform/keyset-page";
import { presentNote } from "./schemas";

/** A conversation's notes, newest first (like its messages), in keyset pages. */
export async function listNotes({
  ctx,
  conversationId,
  limit,
  cursor,
}: {
  ctx: ServiceContext;
  conversationId: string;
  limit: number;
  cursor?: CursorPosition;
}) {
  const db = executorOf(ctx);
  await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  return keysetPage(
    db.select({ note: conversationNotes, author: { id: users.id, name: users.name } }).from(conversationNotes).innerJoin(users, eq(users.id, conversationNotes.authorId)).$dynamic(),
    {
      table: conversationNotes,
      accountId: ctx.accountId,
      where: [eq(conversationNotes.conversationId, conversationId)],
      order: "desc",
      limit,
      cursor,
      position: (r) => ({ t: r.note.createdAt, id: r.note.id }),
      present: (r) => presentNote(r.note, r.author),
    },
  );
}
