import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { labels } from "@/db/schema";

/** One label of the account. */
export async function findLabel(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select().from(labels).where(and(eq(labels.accountId, accountId), eq(labels.id, id))).limit(1);
  return row;
}
