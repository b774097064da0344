import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { pricingTables } from "@/db/schema";

// The reads and writes of an account's price table.

export async function findPricingTable(db: Executor, accountId: string) {
  const [row] = await db.select().from(pricingTables).where(eq(pricingTables.accountId, accountId)).limit(1);
  return row;
}

export async function upsertPricingTable(db: Executor, accountId: string, values: Omit<typeof pricingTables.$inferInsert, "accountId">) {
  await db
    .insert(pricingTables)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: pricingTables.accountId, set: values });
}
