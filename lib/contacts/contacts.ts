import "server-only";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { contactSearchDocument, contacts } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { matchesWords, phoneContains, searchTerms } from "@/lib/search/pattern";
import { presentContact, type UpdateContactInput } from "./schemas";
import { findContact, selectContacts, withStats } from "./store";

/** Name or email words start with the words of `q`, or the number contains its digits; nothing for punctuation alone. */
function contactMatches(q: string) {
  const { words, digits } = searchTerms(q);
  return or(matchesWords(contactSearchDocument(contacts), words), phoneContains(contacts.phone, digits)) ?? sql`false`;
}

/** Newest first by (created_at, id); `q` keeps those whose name, number or email contains it. */
export async function listContacts({ ctx, limit, cursor, q }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition; q?: string }) {
  const rows = await selectContacts(getDb())
    .where(
      and(
        eq(contacts.accountId, ctx.accountId),
        q ? contactMatches(q) : undefined,
        afterCursor(contacts, cursor, "desc"),
      ),
    )
    .orderBy(desc(contacts.createdAt), desc(contacts.id))
    .limit(limit + 1);
  return toPage(rows.map(withStats), limit, (c) => ({ t: c.createdAt, id: c.id }), presentContact);
}

export async function getContact({ ctx, id }: { ctx: ServiceContext; id: string }) {
  return presentContact(await findContact(getDb(), { accountId: ctx.accountId, id }));
}

/**
 * Changes the given fields; `contact.updated` is emitted when something changed. A name set
 * here is kept: the network's profile name no longer overwrites it.
 */
export async function updateContact({ ctx, id, input }: { ctx: ServiceContext<"user">; id: string; input: UpdateContactInput }) {
  return getDb().transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.accountId, ctx.accountId), eq(contacts.id, id)))
      .for("update");
    if (!locked) throw new NotFoundError("Contact");
    const now = new Date();
    const changes: Partial<typeof contacts.$inferInsert> = {};
    if (input.name !== undefined && input.name !== locked.name) Object.assign(changes, { name: input.name, nameEditedAt: input.name === null ? null : now });
    if (input.email !== undefined && input.email !== locked.email) changes.email = input.email;
    if (input.notes !== undefined && input.notes !== locked.notes) changes.notes = input.notes;
    if (input.attributes !== undefined && JSON.stringify(input.attributes) !== JSON.stringify(locked.attributes)) changes.attributes = input.attributes;
    if (input.blocked !== undefined && input.blocked !== locked.blocked) changes.blocked = input.blocked;
    if (Object.keys(changes).length === 0) return presentContact(await findContact(tx, { accountId: ctx.accountId, id }));
    await tx
      .update(contacts)
      .set({ ...changes, updatedAt: now })
      .where(eq(contacts.id, locked.id));
    const contact = presentContact(await findContact(tx, { accountId: ctx.accountId, id }));
    await recordEvent(tx, { accountId: ctx.accountId, type: "contact.updated", data: { contact } });
    return contact;
  });
}
