import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { cannedReplies } from "@/db/schema";

/** One canned reply of the account. */
export async function findCannedReply(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select().from(cannedReplies).where(and(eq(cannedReplies.accountId, accountId), eq(cannedReplies.id, id))).limit(1);
  return row;
}

/** The account's canned replies, for a keyset page. */
export function selectCannedReplies(executor: Executor) {
  return executor.select().from(cannedReplies).$dynamic();
}

export async function insertCannedReply(executor: Executor, values: typeof cannedReplies.$inferInsert) {
  const [row] = await executor.insert(cannedReplies).values(values).returning();
  return row;
}

/** Updates a canned reply of the account and returns it (undefined when there is none). */
export async function updateCannedReplyRow(executor: Executor, { accountId, id, set }: { accountId: string; id: string; set: Partial<typeof cannedReplies.$inferInsert> }) {
  const [row] = await executor
    .update(cannedReplies)
    .set(set)
    .where(and(eq(cannedReplies.accountId, accountId), eq(cannedReplies.id, id)))
    .returning();
  return row;
}

/** Deletes a canned reply of the account; false when there is none. */
export async function deleteCannedReplyRow(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const deleted = await executor
    .delete(cannedReplies)
    .where(and(eq(cannedReplies.accountId, accountId), eq(cannedReplies.id, id)))
    .returning({ id: cannedReplies.id });
  return deleted.length > 0;
}
