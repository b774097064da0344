import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { conversationNotes, users } from "@/db/schema";

/** Stores one note on a conversation. */
export async function insertNote(executor: Executor, values: typeof conversationNotes.$inferInsert) {
  const [row] = await executor.insert(conversationNotes).values(values).returning();
  return row;
}

/** Notes with their author's id and name, for a keyset page. */
export function selectNotesWithAuthor(executor: Executor) {
  return executor.select({ note: conversationNotes, author: { id: users.id, name: users.name } }).from(conversationNotes).innerJoin(users, eq(users.id, conversationNotes.authorId)).$dynamic();
}
