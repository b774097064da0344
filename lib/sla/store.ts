import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { slaPolicies } from "@/db/schema";

/** Whether the account has this SLA policy: its id, or undefined. */
export async function findSlaPolicyId(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select({ id: slaPolicies.id }).from(slaPolicies).where(and(eq(slaPolicies.accountId, accountId), eq(slaPolicies.id, id))).limit(1);
  return row;
}
