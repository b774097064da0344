import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, businessProfiles } from "@/db/schema";

// The reads and writes of the business profile.

export async function findBusinessProfile(db: Executor, accountId: string) {
  const [row] = await db.select().from(businessProfiles).where(eq(businessProfiles.accountId, accountId)).limit(1);
  return row;
}

/** The account's name and when it was created (what a profile never saved reads as). */
export async function findAccountName(db: Executor, accountId: string) {
  const [account] = await db.select({ name: accounts.name, createdAt: accounts.createdAt }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return account;
}

/** The profile's description, its row locked until the transaction ends. */
export async function lockBusinessProfile(tx: Executor, accountId: string) {
  const [previous] = await tx.select({ description: businessProfiles.description }).from(businessProfiles).where(eq(businessProfiles.accountId, accountId)).for("update");
  return previous;
}

export async function upsertBusinessProfile(db: Executor, accountId: string, values: Omit<typeof businessProfiles.$inferInsert, "accountId">) {
  const [saved] = await db
    .insert(businessProfiles)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: businessProfiles.accountId, set: values })
    .returning();
  return saved;
}
