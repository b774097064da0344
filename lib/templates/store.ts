import { and, eq, inArray, or } from "drizzle-orm";
import type { Executor } from "@/db";
import { media, messageTemplates, numberIntegrations } from "@/db/schema";

/** The account's template of this name in this language, if any. */
export async function findTemplateByName(executor: Executor, { accountId, name, language }: { accountId: string; name: string; language: string }) {
  const [row] = await executor
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.accountId, accountId), eq(messageTemplates.name, name), eq(messageTemplates.language, language)))
    .limit(1);
  return row;
}

/** The phone_number_ids of the cloud numbers of these business accounts (whose app secret signs template notifications). */
export async function phoneNumberIdsOfBusinessAccounts(db: Executor, businessAccountIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ phoneNumberId: numberIntegrations.phoneNumberId })
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), inArray(numberIntegrations.businessAccountId, businessAccountIds)));
  return rows.map((row) => row.phoneNumberId).filter((id): id is string => Boolean(id));
}

/** The accounts whose cloud number belongs to this business account. */
export async function findCloudAccountIdsOfBusinessAccount(db: Executor, { businessAccountId }: { businessAccountId: string }) {
  const rows = await db
    .select({ accountId: numberIntegrations.accountId })
    .from(numberIntegrations)
    .where(and(eq(numberIntegrations.provider, "cloud"), eq(numberIntegrations.businessAccountId, businessAccountId)));
  return rows.map((row) => row.accountId);
}

/**
 * The templates of these accounts that a status update names: by the network's id, or by name
 * and language (the network sends its id as a JSON number, which can exceed what a double holds
 * exactly, so name and language identify the template as well). None when it names neither.
 */
export async function findTemplatesNamedByUpdate(
  db: Executor,
  { accountIds, networkTemplateId, name, language }: { accountIds: string[]; networkTemplateId?: string; name?: string; language?: string },
) {
  const byId = networkTemplateId ? eq(messageTemplates.networkTemplateId, networkTemplateId) : undefined;
  const byName = name && language ? and(eq(messageTemplates.name, name), eq(messageTemplates.language, language)) : undefined;
  const byTemplate = byId && byName ? or(byId, byName) : (byId ?? byName);
  if (!byTemplate) return [];
  return db
    .select({ id: messageTemplates.id, accountId: messageTemplates.accountId })
    .from(messageTemplates)
    .where(and(inArray(messageTemplates.accountId, accountIds), byTemplate));
}

/** A template row by id, whichever account (a job's payload names it). */
export async function findTemplateRow(db: Executor, { id }: { id: string }) {
  const [row] = await db.select().from(messageTemplates).where(eq(messageTemplates.id, id)).limit(1);
  return row;
}

/** The account's templates, for a keyset page. */
export function selectTemplates(executor: Executor) {
  return executor.select().from(messageTemplates).$dynamic();
}

/** One template of the account, locked for the rest of the transaction when `lock`. */
export async function findTemplate(executor: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const query = executor
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.accountId, accountId), eq(messageTemplates.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function insertTemplate(tx: Executor, values: typeof messageTemplates.$inferInsert) {
  const [row] = await tx.insert(messageTemplates).values(values).returning();
  return row;
}

export async function updateTemplateRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof messageTemplates.$inferInsert> }) {
  const [row] = await tx.update(messageTemplates).set(set).where(eq(messageTemplates.id, id)).returning();
  return row;
}

/** Deletes a template of the account and its header file (given by id). */
export async function deleteTemplateRow(tx: Executor, { accountId, id, headerMediaId }: { accountId: string; id: string; headerMediaId?: string }) {
  await tx.delete(messageTemplates).where(and(eq(messageTemplates.accountId, accountId), eq(messageTemplates.id, id)));
  if (headerMediaId) await tx.delete(media).where(and(eq(media.accountId, accountId), eq(media.id, headerMediaId)));
}

/** The category of the account's template with this name and language, or null. */
export async function findTemplateCategory(executor: Executor, { accountId, name, language }: { accountId: string; name: string; language: string }) {
  const [row] = await executor
    .select({ category: messageTemplates.category })
    .from(messageTemplates)
    .where(and(eq(messageTemplates.accountId, accountId), eq(messageTemplates.name, name), eq(messageTemplates.language, language)))
    .limit(1);
  return row?.category ?? null;
}
