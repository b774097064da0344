import { and, asc, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { type Contact, contactActivity, contactNameKey, contactSearchDocument, contacts, conversations } from "@/db/schema";
import { searchTerms } from "@/lib/search/pattern";
import { matchesWords, phoneContains } from "@/lib/search/store";
import { NotFoundError } from "@/lib/platform/errors";
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
function selectContactsToList(executor: Executor) {
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

/** Name or email words start with the words of `q`, or the number contains its digits; nothing for punctuation alone. */
function contactMatches(q: string) {
  const { words, digits } = searchTerms(q);
  return or(matchesWords(contactSearchDocument(contacts), words), phoneContains(contacts.phone, digits)) ?? sql`false`;
}

/**
 * Up to `limit` of the account's contacts in the list's order, after the cursor's key: `name` by
 * the name key then id; otherwise most recent activity first, by (contact_activity.sort_at, id)
 * descending. `q` keeps those whose name, number or email matches.
 */
export async function listContactRows(
  executor: Executor,
  { accountId, byName, after, q, limit }: { accountId: string; byName: boolean; after?: unknown[]; q?: string; limit: number },
) {
  const nameKey = contactNameKey(contacts);
  return selectContactsToList(executor)
    .where(
      and(
        eq(contacts.accountId, accountId),
        eq(contactActivity.accountId, accountId),
        q ? contactMatches(q) : undefined,
        after
          ? byName
            ? sql`(${nameKey}, ${contacts.id}) > (${after[0]}::text COLLATE "C", ${after[1]})`
            : sql`(${contactActivity.sortAt}, ${contactActivity.contactId}) < (${after[0]}::timestamptz, ${after[1]})`
          : undefined,
      ),
    )
    .orderBy(...(byName ? [asc(nameKey), asc(contacts.id)] : [desc(contactActivity.sortAt), desc(contactActivity.contactId)]))
    .limit(limit);
}

/** The account's contact, its row locked until the transaction ends; undefined when missing. */
export async function lockContact(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, id)))
    .for("update");
  return row as Contact | undefined;
}

/** The account's contact with this phone number, locked; undefined when missing. */
export async function lockContactByPhone(tx: Executor, { accountId, phone }: { accountId: string; phone: string }) {
  const [row] = await tx.select().from(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.phone, phone))).for("update");
  return row as Contact | undefined;
}

/** The account's contact with this business-scoped user id, locked; undefined when missing. */
export async function lockContactByUserId(tx: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  const [row] = await tx.select().from(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.networkUserId, userId))).for("update");
  return row as Contact | undefined;
}

/** Stores a contact unless its phone or user id is already the account's (then nothing). */
export async function insertContactIfNew(tx: Executor, values: typeof contacts.$inferInsert) {
  await tx.insert(contacts).values(values).onConflictDoNothing();
}

/** Changes these columns of a contact (found by the caller) and returns it. */
export async function updateContactRow(tx: Executor, { id, set }: { id: string; set: Partial<typeof contacts.$inferInsert> }) {
  const [row] = await tx.update(contacts).set(set).where(eq(contacts.id, id)).returning();
  return row as Contact;
}

export async function deleteContactRow(tx: Executor, { id }: { id: string }) {
  await tx.delete(contacts).where(eq(contacts.id, id));
}

/** The account's conversations of contact `from` become contact `to`'s (a merge of two contacts). */
export async function moveConversationsToContact(tx: Executor, { accountId, from, to }: { accountId: string; from: string; to: string }) {
  await tx.update(conversations).set({ contactId: to }).where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, from)));
}

/** Of these phone numbers, those of the account's contacts, with their marketing consent. */
export async function findContactsConsentByPhone(executor: Executor, { accountId, phones }: { accountId: string; phones: string[] }) {
  return executor.select({ phone: contacts.phone, optIn: contacts.marketingOptIn }).from(contacts).where(and(eq(contacts.accountId, accountId), inArray(contacts.phone, phones)));
}

/** A contact of an import: a new number is stored, a known one updated (see `upsertImportedContacts`). */
export type ImportedContact = { phone: string; name: string | null; email: string | null; optIn: boolean | null | undefined; attributes: Record<string, string> };

/**
 * Stores imported contacts in one statement, keyed by (account, phone). A known number keeps
 * what the row does not say: name and email when given, attributes merged, consent only when the
 * row says something about it and never undoing an opt-out.
 */
export async function upsertImportedContacts(tx: Executor, { accountId, rows, now }: { accountId: string; rows: ImportedContact[]; now: Date }) {
  await tx
    .insert(contacts)
    .values(
      rows.map((r) => ({
        id: newId("contact", now),
        accountId,
        phone: r.phone,
        name: r.name,
        email: r.email,
        attributes: r.attributes,
        marketingOptIn: r.optIn ?? null,
        nameEditedAt: r.name ? now : null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [contacts.accountId, contacts.phone],
      set: {
        name: sql`coalesce(excluded.name, ${contacts.name})`,
        nameEditedAt: sql`case when excluded.name is null then ${contacts.nameEditedAt} else excluded.name_edited_at end`,
        email: sql`coalesce(excluded.email, ${contacts.email})`,
        attributes: sql`${contacts.attributes} || excluded.attributes`,
        // Consent changes only where the file (or the import) says something about it, and an
        // opt-out is never undone by an import: only the customer's own opt-in (recorded by the
        // business on the contact) turns it back on.
        marketingOptIn: rows.some((r) => r.optIn !== undefined)
          ? sql`case when ${contacts.marketingOptIn} = false then false else coalesce(excluded.marketing_opt_in, ${contacts.marketingOptIn}) end`
          : sql`${contacts.marketingOptIn}`,
        updatedAt: now,
      },
    });
}
