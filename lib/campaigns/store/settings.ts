import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaignSettings } from "@/db/schema";

/** The account's stored campaign settings row, if it has one. */
export async function findCampaignSettings(db: Executor, accountId: string) {
  const [row] = await db.select().from(campaignSettings).where(eq(campaignSettings.accountId, accountId)).limit(1);
  return row;
}

/** Writes the account's campaign settings, creating its row the first time. */
export async function upsertCampaignSettings(
  db: Executor,
  accountId: string,
  values: { messagesPerSecond: number; requireOptIn: boolean; optOutKeywords: string[]; updatedAt: Date },
) {
  await db
    .insert(campaignSettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: campaignSettings.accountId, set: values });
}
