import type { Executor } from "@/db";
import { conversationNotes } from "@/db/schema";

/** Stores one note on a conversation. */
export async function insertNote(executor: Executor, values: typeof conversationNotes.$inferInsert) {
  const [row] = await executor.insert(conversationNotes).values(values).returning();
  return row;
}
