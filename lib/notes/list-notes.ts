import "server-only";
import { eq } from "drizzle-orm";
import { conversationNotes } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { findConversation } from "@/lib/conversations/store";
import { keysetPage, type PageArgs } from "@/lib/platform/keyset-page";
import { presentNote } from "./schemas";
import { selectNotesWithAuthor } from "./store";

/** A conversation's notes, newest first (like its messages), in keyset pages. */
export async function listNotes({ ctx, conversationId, limit, cursor }: PageArgs & { ctx: ServiceContext; conversationId: string }) {
  const db = ctx.db;
  await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  return keysetPage(
    selectNotesWithAuthor(db),
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
