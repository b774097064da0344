import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { teams } from "@/db/schema";

/** Whether the account has this team: its id, or undefined. */
export async function findTeamId(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select({ id: teams.id }).from(teams).where(and(eq(teams.accountId, accountId), eq(teams.id, id))).limit(1);
  return row;
}
