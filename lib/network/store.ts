import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "@/db";
import { numberIntegrations } from "@/db/schema";

// The reads and writes of an account's number integration row.

export async function findNumberIntegration(db: Executor, accountId: string, { forUpdate = false }: { forUpdate?: boolean } = {}) {
  const query = db.select().from(numberIntegrations).where(eq(numberIntegrations.accountId, accountId));
  const [row] = forUpdate ? await query.for("update") : await query.limit(1);
  return row;
}

/** The sandbox default row, unless the account has one already (then undefined). */
export async function insertSandboxIntegration(db: Executor, accountId: string) {
  const [created] = await db
    .insert(numberIntegrations)
    .values({ accountId, provider: "sandbox", status: "sandbox", updatedAt: new Date() })
    .onConflictDoNothing()
    .returning();
  return created;
}

/** Whether another account has connected this cloud phone_number_id. */
export async function cloudNumberTakenElsewhere(db: Executor, { accountId, phoneNumberId }: { accountId: string; phoneNumberId: string }) {
  const [taken] = await db
    .select({ accountId: numberIntegrations.accountId })
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), eq(numberIntegrations.phoneNumberId, phoneNumberId), ne(numberIntegrations.accountId, accountId)))
    .limit(1);
  return Boolean(taken);
}

export async function updateNumberIntegration(db: Executor, accountId: string, set: Partial<typeof numberIntegrations.$inferInsert>) {
  const [updated] = await db.update(numberIntegrations).set(set).where(eq(numberIntegrations.accountId, accountId)).returning();
  return updated;
}
