import { and, asc, desc, eq, gte, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, automations, contacts, conversations, macros, messages } from "@/db/schema";

// Rules

/** The account's rules, for a keyset page. */
export function selectAutomations(executor: Executor) {
  return executor.select().from(automations).$dynamic();
}

/** Every rule of the account in running order. */
export async function findAutomationsInOrder(executor: Executor, { accountId }: { accountId: string }) {
  return executor.select().from(automations).where(eq(automations.accountId, accountId)).orderBy(automations.position, automations.id);
}

/** Locks the account's rule order (the account row is the lock) and counts its rules. */
export async function lockRuleOrder(tx: Executor, { accountId }: { accountId: string }): Promise<number> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
  const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(automations).where(eq(automations.accountId, accountId));
  return Number(n);
}

/** One rule of the account, locked. */
export async function lockAutomation(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx.select().from(automations).where(and(eq(automations.accountId, accountId), eq(automations.id, id))).for("update");
  return row;
}

/** Moves the account's rules at positions `from` up to `until` (excluded; no end when absent) by `by`. */
export async function shiftAutomationPositions(tx: Executor, { accountId, from, until, by }: { accountId: string; from: number; until?: number; by: 1 | -1 }) {
  await tx
    .update(automations)
    .set({ position: sql`${automations.position} + ${by}` })
    .where(and(eq(automations.accountId, accountId), gte(automations.position, from), until === undefined ? undefined : lt(automations.position, until)));
}

export async function insertAutomation(tx: Executor, values: typeof automations.$inferInsert) {
  const [row] = await tx.insert(automations).values(values).returning();
  return row;
}

export async function updateAutomationRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof automations.$inferInsert> }) {
  const [row] = await tx.update(automations).set(set).where(eq(automations.id, id)).returning();
  return row;
}

export async function deleteAutomationRow(tx: Executor, { id }: { id: string }) {
  await tx.delete(automations).where(eq(automations.id, id));
}

/** The account's rule version: how many rules, and when each last changed (ids and positions move with them). */
const versionOf = (accountId: string) => sql<string>`(select count(*)::text || ':' || coalesce(max(${automations.updatedAt})::text, '') || ':' || coalesce(sum(extract(epoch from ${automations.updatedAt}))::text, '0') || ':' || coalesce(sum(${automations.position}), 0)::text
    from ${automations} where ${automations.accountId} = ${accountId})`;

/** The account's enabled rules in running order, each with the rule version read in the same statement. */
export async function findEnabledAutomations(tx: Executor, { accountId }: { accountId: string }) {
  return tx
    .select({ rule: automations, version: versionOf(accountId) })
    .from(automations)
    .where(and(eq(automations.accountId, accountId), eq(automations.enabled, true)))
    .orderBy(asc(automations.position), asc(automations.id));
}

/**
 * In one round trip: the account's rule version, and the facts of the conversation only when an
 * enabled rule listens to the event (null otherwise; see factsExpression).
 */
export async function findRuleVersionAndFacts(
  tx: Executor,
  { accountId, event, conversationId, messageId }: { accountId: string; event: string; conversationId: string; messageId?: string },
) {
  const listening = sql`exists (select 1 from ${automations} where ${automations.accountId} = ${accountId} and ${automations.event} = ${event} and ${automations.enabled})`;
  const [row] = await tx
    .select({ version: versionOf(accountId), facts: sql<unknown>`case when ${listening} then ${factsExpression({ accountId, conversationId, messageId })} end` })
    .from(sql`(select 1) as one`);
  return row;
}

// Facts

/**
 * The facts of one conversation as one JSON value, as the conditions see them: the conversation,
 * its contact and the message the event is about (or, without one, the conversation's latest
 * customer message). It names no column of an outer query, so the database computes it once
 * even as a column of every rule loaded beside it.
 */
function factsExpression({ accountId, conversationId, messageId }: { accountId: string; conversationId: string; messageId?: string }): SQL<unknown> {
  const message = messageId
    ? sql`select json_build_object('text', m.text, 'language', m.language) from ${messages} m where m.account_id = ${accountId} and m.id = ${messageId}`
    : sql`select json_build_object('text', m.text, 'language', m.language) from ${messages} m where m.account_id = ${accountId} and m.conversation_id = ${conversationId} and m.direction = 'inbound' order by m.created_at desc, m.id desc limit 1`;
  return sql`(select json_build_object(
      'status', c.status, 'assigneeId', c.assigned_to, 'priority', c.priority, 'teamId', c.team_id, 'labels', c.labels, 'contactId', ct.id, 'name', ct.name,
      'phone', ct.phone, 'attributes', ct.attributes, 'blocked', ct.blocked, 'message', (${message}))
    from ${conversations} c join ${contacts} ct on ct.id = c.contact_id
    where c.account_id = ${accountId} and c.id = ${conversationId})`;
}

/** The facts of one conversation as `factsExpression`'s value (a JSON string on one driver, parsed on the other). */
export async function findConversationFacts(tx: Executor, subject: { accountId: string; conversationId: string; messageId?: string }): Promise<unknown> {
  const [row] = await tx.select({ facts: factsExpression(subject) }).from(sql`(select 1) as one`);
  return row?.facts;
}

/** The labels on the contacts' conversations that carry any (contacts carry no labels of their own). */
export async function findContactsConversationLabels(tx: Executor, { accountId, contactIds }: { accountId: string; contactIds: string[] }) {
  return tx
    .select({ contactId: conversations.contactId, labels: conversations.labels })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), inArray(conversations.contactId, contactIds), sql`${conversations.labels} <> '[]'::jsonb`));
}

/** The account's latest `limit` conversations by creation, newest first, with the facts the conditions read. */
export async function findPreviewSample(db: Executor, { accountId, limit }: { accountId: string; limit: number }) {
  return db
    .select({
      id: conversations.id,
      status: conversations.status,
      assigneeId: conversations.assignedTo,
      priority: conversations.priority,
      teamId: conversations.teamId,
      labels: conversations.labels,
      at: sql<Date>`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`.mapWith(conversations.createdAt),
      contactId: contacts.id,
      name: contacts.name,
      phone: contacts.phone,
      attributes: contacts.attributes,
      blocked: contacts.blocked,
    })
    .from(conversations)
    .innerJoin(contacts, eq(contacts.id, conversations.contactId))
    .where(eq(conversations.accountId, accountId))
    .orderBy(desc(conversations.createdAt), desc(conversations.id))
    .limit(limit);
}

/** The latest customer message of each of the conversations. */
export async function findLatestInboundOfConversations(db: Executor, { accountId, conversationIds }: { accountId: string; conversationIds: string[] }) {
  return db
    .selectDistinctOn([messages.conversationId], { conversationId: messages.conversationId, text: messages.text, language: messages.language })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), inArray(messages.conversationId, conversationIds), eq(messages.direction, "inbound")))
    .orderBy(messages.conversationId, desc(messages.createdAt), desc(messages.id));
}

// Macros

/** The macros a user sees: the account's shared ones and their own. */
export const macroVisibleTo = (userId: string) => or(eq(macros.visibility, "account"), eq(macros.ownerId, userId));

/** The account's macros, for a keyset page (with `macroVisibleTo` as its condition). */
export function selectMacros(executor: Executor) {
  return executor.select().from(macros).$dynamic();
}

/** One macro of the account that `userId` sees (locked when `lock`). */
export async function findVisibleMacro(tx: Executor, { accountId, userId, id, lock = false }: { accountId: string; userId: string; id: string; lock?: boolean }) {
  const query = tx
    .select()
    .from(macros)
    .where(and(eq(macros.accountId, accountId), eq(macros.id, id), macroVisibleTo(userId)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

export async function insertMacro(tx: Executor, values: typeof macros.$inferInsert) {
  const [row] = await tx.insert(macros).values(values).returning();
  return row;
}

export async function updateMacroRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof macros.$inferInsert> }) {
  const [row] = await tx.update(macros).set(set).where(eq(macros.id, id)).returning();
  return row;
}

export async function deleteMacroRow(tx: Executor, { id }: { id: string }) {
  await tx.delete(macros).where(eq(macros.id, id));
}
