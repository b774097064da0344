import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { numberIntegrations } from "@/db/schema";

/** The cloud number whose settings hold this webhook verify token, if any. */
export async function findCloudNumberByVerifyToken(db: Executor, { verifyToken }: { verifyToken: string }) {
  const [row] = await db
    .select({ accountId: numberIntegrations.accountId })
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), eq(numberIntegrations.verifyToken, verifyToken)))
    .limit(1);
  return row;
}

/** The cloud numbers with these phone_number_ids (the network names the number a notification is for by it). */
export async function findCloudNumbersByPhoneNumberId(db: Executor, { phoneNumberIds }: { phoneNumberIds: string[] }) {
  return db
    .select()
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), inArray(numberIntegrations.phoneNumberId, phoneNumberIds)));
}

/** The cloud numbers with these phone numbers. */
export async function findCloudNumbersByPhoneNumber(db: Executor, { phoneNumbers }: { phoneNumbers: string[] }) {
  return db
    .select()
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), inArray(numberIntegrations.phoneNumber, phoneNumbers)));
}
