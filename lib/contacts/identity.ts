import type { Executor } from "@/db";
import type { Contact } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { deleteContactRow, insertContactIfNew, lockContactByPhone, lockContactByUserId, moveConversationsToContact, updateContactRow } from "./store";

/** Who a customer is, as a message names them: a phone number, a business-scoped user id, or both. */
export type ContactIdentity = { phone?: string | null; userId?: string | null; username?: string | null; name?: string | null };

/** Where messages to the contact go: the phone when known, else the business-scoped user id. */
export const contactAddress = (contact: { phone: string | null; networkUserId: string | null }) => contact.phone ?? contact.networkUserId ?? "";

/**
 * Folds a phone-only contact into the contact of the same customer known by their BSUID:
 * its conversations move over, the fields the BSUID contact lacks (name, email, notes,
 * attributes it does not have) are taken from it, blocked stays blocked if either was, and the
 * phone-only contact is removed. The phone then belongs to the BSUID contact.
 */
async function mergeInto(tx: Executor, { keep, gone, now }: { keep: Contact; gone: Contact; now: Date }): Promise<Contact> {
  await moveConversationsToContact(tx, { accountId: keep.accountId, from: gone.id, to: keep.id });
  await deleteContactRow(tx, { id: gone.id });
  return updateContactRow(tx, {
    id: keep.id,
    set: {
      phone: gone.phone,
      name: keep.name ?? gone.name,
      nameEditedAt: keep.name ? keep.nameEditedAt : gone.nameEditedAt,
      email: keep.email ?? gone.email,
      notes: keep.notes ?? gone.notes,
      attributes: { ...(gone.attributes ?? {}), ...(keep.attributes ?? {}) },
      blocked: keep.blocked || gone.blocked,
      createdAt: gone.createdAt < keep.createdAt ? gone.createdAt : keep.createdAt,
      updatedAt: now,
    },
  });
}

/**
 * The account's contact for this customer, created when new and locked for the transaction.
 * A customer is found by BSUID first, then by phone; each identifier a message brings that the
 * contact lacks is added to it (a phone appearing later for a BSUID joins the same contact, never
 * a second one). When the phone already belongs to a separate phone-only contact, that contact is
 * merged into the BSUID's (see mergeInto). The network's profile name and username are kept
 * current, except that a name a person gave the contact wins.
 */
export async function ensureContactByIdentity(tx: Executor, { accountId, identity }: { accountId: string; identity: ContactIdentity }): Promise<Contact> {
  const now = new Date();
  const phone = identity.phone || null;
  const userId = identity.userId || null;
  if (!phone && !userId) throw new Error("A contact needs a phone number or a business-scoped user id.");
  await insertContactIfNew(tx, { id: newId("contact", now), accountId, phone, networkUserId: userId, username: identity.username ?? null, name: identity.name ?? null, createdAt: now, updatedAt: now });
  const byUserId = userId ? await lockContactByUserId(tx, { accountId, userId }) : undefined;
  const byPhone = phone ? await lockContactByPhone(tx, { accountId, phone }) : undefined;
  let contact: Contact;
  if (byUserId && byPhone && byUserId.id !== byPhone.id) {
    contact = byPhone.networkUserId ? byUserId : await mergeInto(tx, { keep: byUserId, gone: byPhone, now });
  } else {
    contact = (byUserId ?? byPhone)!;
  }
  const changes: Partial<Contact> = {};
  if (phone && !contact.phone && (!byPhone || byPhone.id === contact.id)) changes.phone = phone;
  if (userId && !contact.networkUserId) changes.networkUserId = userId;
  if (identity.username && contact.username !== identity.username) changes.username = identity.username;
  // A name a person gave the contact wins over the network's profile name.
  if (identity.name && contact.name !== identity.name && !contact.nameEditedAt) changes.name = identity.name;
  if (Object.keys(changes).length === 0) return contact;
  return updateContactRow(tx, { id: contact.id, set: { ...changes, updatedAt: now } });
}

