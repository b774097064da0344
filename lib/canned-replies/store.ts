import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { cannedReplies } from "@/db/schema";

/** One canned reply of the account. */
export async function findCannedReply(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select().from(cannedReplies).where(and(eq(cannedReplies.accountId, accountId), eq(cannedReplies.id, id))).limit(1);
  return row;
}
