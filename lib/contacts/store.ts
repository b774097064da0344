import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { contactActivity, contactNameKey, contacts, conversations } from "@/db/schema";
import { ApiError, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import type { ContactWithStats } from "./schemas";

// Written out: inside a subquery drizzle would leave the outer columns unqualified. Served by conversations_contact_idx.
const ofThisContact = sql.raw(`c.account_id = "contacts"."account_id" and c.contact_id = "contacts"."id"`);

/** Contacts with what their page shows about their conversations (one index lookup each). */
export function selectContacts(executor: Executor) {
  return executor.select(contactColumns).from(contacts);
}

const contactColumns = {
  contact: contacts,
  lastMessageAt: sql<string | null>`(select max(c.last_message_at) from ${conversations} c where ${ofThisContact})`,
  conversationsCount: sql<number>`(select count(*) from ${conversations} c where ${ofThisContact})`,
};

/** `selectContacts` with the list's ordering keys: the latest activity (`contact_activity`) and the name key. */
export function selectContactsToList(executor: Executor) {
  return executor
    .select({ ...contactColumns, sortAt: contactActivity.sortAt, nameKey: sql<string>`${contactNameKey(contacts)}` })
    .from(contacts)
    .innerJoin(contactActivity, eq(contactActivity.contactId, contacts.id));
}

export const withStats = (row: { contact: typeof contacts.$inferSelect; lastMessageAt: string | Date | null; conversationsCount: number | string }): ContactWithStats => ({
  ...row.contact,
  lastMessageAt: row.lastMessageAt ? new Date(row.lastMessageAt) : null,
  conversationsCount: Number(row.conversationsCount),
});

export async function findContact(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await selectContacts(executor)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
    .limit(1);
  if (!row) throw new NotFoundError("Contact");
  return withStats(row);
}

/** A send to a blocked contact is refused (its transaction then writes nothing). */
export function refuseBlockedContact(contact: { blocked?: boolean }) {
  if (contact.blocked) throw new ApiError(409, "contact_blocked", "This contact is blocked. Unblock them on their contact page to send a message.");
}

/** The contact with this number, created when new, named `name` unless a person gave it a name. */
export async function upsertContactName(executor: Executor, { accountId, phone, name }: { accountId: string; phone: string; name: string | null }) {
  const now = new Date();
  await executor
    .insert(contacts)
    .values({ id: newId("contact", now), accountId, phone, name, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [contacts.accountId, contacts.phone], set: { name, updatedAt: now }, setWhere: isNull(contacts.nameEditedAt) });
}

/** Where a contact's messages go: its number and business-scoped user id. */
export async function findContactAddress(executor: Executor, { id }: { id: string }) {
  const [row] = await executor.select({ phone: contacts.phone, networkUserId: contacts.networkUserId }).from(contacts).where(eq(contacts.id, id)).limit(1);
  return row;
}

/** Of these ids, the account's contacts. */
export async function findContactRows(executor: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  return executor.select().from(contacts).where(and(eq(contacts.accountId, accountId), inArray(contacts.id, ids)));
}

/** Of these ids, those of the account's contacts (only the ids: a list may hold thousands). */
export async function findContactIds(executor: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  return executor.select({ id: contacts.id }).from(contacts).where(and(eq(contacts.accountId, accountId), inArray(contacts.id, ids)));
}

/** Whether some contact of the account holds the attribute. */
export async function someContactHasAttribute(executor: Executor, { accountId, key }: { accountId: string; key: string }) {
  const [held] = await executor
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), sql`${contacts.attributes} ->> ${key}::text is not null`))
    .limit(1);
  return held !== undefined;
}

/** Sets the contact's `marketing_opt_in` to false. */
export async function optOutOfMarketing(executor: Executor, { accountId, id, at }: { accountId: string; id: string; at: Date }) {
  await executor
    .update(contacts)
    .set({ marketingOptIn: false, updatedAt: at })
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)));
}
