import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { conversationActivities, conversations } from "@/db/schema";

/** Stores one entry of a conversation's activity trail and returns it. */
export async function insertActivity(tx: Executor, row: typeof conversationActivities.$inferInsert) {
  const [stored] = await tx.insert(conversationActivities).values(row).returning();
  return stored;
}

/** Stores many entries of activity trails in one statement. */
export async function insertActivities(tx: Executor, rows: (typeof conversationActivities.$inferInsert)[]) {
  await tx.insert(conversationActivities).values(rows);
}

/**
 * Whether the account has this conversation (read here rather than through the conversations
 * domain, which records activity itself).
 */
export async function conversationExists(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.id, id)))
    .limit(1);
  return Boolean(row);
}

/** Activity entries, for a keyset page. */
export function selectActivities(db: Executor) {
  return db.select().from(conversationActivities).$dynamic();
}
