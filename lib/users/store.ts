import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { users } from "@/db/schema";

/** A user of the account who is not deleted. */
export async function findActiveUser(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, id), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/** A user of the account (deleted ones too) by id, with their name. */
export async function findUserName(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select({ id: users.id, name: users.name }).from(users).where(and(eq(users.accountId, accountId), eq(users.id, id))).limit(1);
  return row;
}
