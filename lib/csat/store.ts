import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { csatSettings } from "@/db/schema";

/** The account's saved survey settings, if any. */
export async function findCsatSettings(db: Executor, { accountId }: { accountId: string }) {
  const [row] = await db.select().from(csatSettings).where(eq(csatSettings.accountId, accountId)).limit(1);
  return row;
}

/** Saves the account's survey settings and returns them. */
export async function upsertCsatSettings(db: Executor, { accountId, values }: { accountId: string; values: { enabled: boolean; question: string; updatedAt: Date } }) {
  const [row] = await db
    .insert(csatSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: csatSettings.accountId, set: values })
    .returning();
  return row;
}
