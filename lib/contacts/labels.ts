import type { LabelRef } from "@/db/schema";
import { findLabels } from "@/lib/labels/store";
import type { ServiceContext } from "@/lib/auth/context";
import { invalidField, NotFoundError } from "@/lib/platform/errors";
import { lockContact, updateContactRow } from "./store";

/**
 * Sets the labels on the contact itself to exactly `labelIds` (each a label of the account,
 * else 400 naming it). Campaign audiences match these and the labels of the contact's conversations.
 */
export async function setContactLabels({ ctx, id, labelIds }: { ctx: ServiceContext; id: string; labelIds: string[] }) {
  const wanted = [...new Set(labelIds)];
  return ctx.db.transaction(async (tx) => {
    const contact = await lockContact(tx, { accountId: ctx.accountId, id });
    if (!contact) throw new NotFoundError("Contact");
    const found = wanted.length ? await findLabels(tx, { accountId: ctx.accountId, ids: wanted }) : [];
    const unknown = labelIds.findIndex((labelId) => !found.some((l) => l.id === labelId));
    if (unknown >= 0) throw invalidField(`label_ids.${unknown}`, "is not a label of this account");
    const next: LabelRef[] = wanted.map((labelId) => found.find((l) => l.id === labelId)!).map((l) => ({ id: l.id, name: l.name, color: l.color }));
    await updateContactRow(tx, { id: contact.id, set: { labels: next, updatedAt: new Date() } });
    return { contact_id: contact.id, labels: next };
  });
}
