import "server-only";
import type { contacts } from "@/db/schema";
import { decodeListCursor, encodeListCursor } from "@/lib/platform/cursor";
import type { ServiceContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { type ContactSort, presentContact, type UpdateContactInput } from "./schemas";
import { findContact, listContactRows, lockContact, updateContactRow, withStats } from "./store";

/**
 * One page of contacts in the chosen order, `q` keeping those whose name, number or email matches.
 * `last_message` (the default): most recent activity first, by (contact_activity.sort_at, id)
 * descending; `name`: by the name key, then id. The cursor holds the last row's key and is bound
 * to its order.
 */
export async function listContacts({ ctx, limit, cursor, q, sort = "last_message" }: { ctx: ServiceContext; limit: number; cursor?: string; q?: string; sort?: ContactSort }) {
  const list = `contacts:${sort}`;
  const after = cursor ? decodeListCursor(cursor, list, 2) : undefined;
  const byName = sort === "name";
  const rows = await listContactRows(ctx.db, { accountId: ctx.accountId, byName, after, q, limit: limit + 1 });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map((row) => presentContact(withStats(row))),
    pagination: {
      next_cursor: hasMore && last ? encodeListCursor(list, byName ? [last.nameKey, last.contact.id] : [new Date(last.sortAt).toISOString(), last.contact.id]) : null,
      has_more: hasMore,
    },
  };
}

export async function getContact({ ctx, id }: { ctx: ServiceContext; id: string }) {
  return presentContact(await findContact(ctx.db, { accountId: ctx.accountId, id }));
}

/**
 * Changes the given fields; `contact.updated` is emitted when something changed. A name set
 * here is kept: the network's profile name no longer overwrites it.
 */
export async function updateContact({ ctx, id, input }: { ctx: ServiceContext<"user">; id: string; input: UpdateContactInput }) {
  return ctx.db.transaction(async (tx) => {
    const locked = await lockContact(tx, { accountId: ctx.accountId, id });
    if (!locked) throw new NotFoundError("Contact");
    const now = new Date();
    const changes: Partial<typeof contacts.$inferInsert> = {};
    if (input.name !== undefined && input.name !== locked.name) Object.assign(changes, { name: input.name, nameEditedAt: input.name === null ? null : now });
    if (input.email !== undefined && input.email !== locked.email) changes.email = input.email;
    if (input.notes !== undefined && input.notes !== locked.notes) changes.notes = input.notes;
    if (input.attributes !== undefined && JSON.stringify(input.attributes) !== JSON.stringify(locked.attributes)) changes.attributes = input.attributes;
    if (input.blocked !== undefined && input.blocked !== locked.blocked) changes.blocked = input.blocked;
    if (input.marketing_opt_in !== undefined && input.marketing_opt_in !== locked.marketingOptIn) changes.marketingOptIn = input.marketing_opt_in;
    if (Object.keys(changes).length === 0) return presentContact(await findContact(tx, { accountId: ctx.accountId, id }));
    await updateContactRow(tx, { id: locked.id, set: { ...changes, updatedAt: now } });
    const contact = presentContact(await findContact(tx, { accountId: ctx.accountId, id }));
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "contact.updated", data: { contact } });
    return contact;
  });
}
