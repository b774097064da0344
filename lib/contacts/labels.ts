import { and, eq, inArray } from "drizzle-orm";
import { contacts, type LabelRef, labels } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { invalidField, NotFoundError } from "@/lib/platform/errors";

/**
 * Sets the labels on the contact itself to exactly `labelIds` (each a label of the account,
 * else 400 naming it). Campaign audiences match these and the labels of the contact's conversations.
 */
export async function setContactLabels({ ctx, id, labelIds }: { ctx: ServiceContext; id: string; labelIds: string[] }) {
  const wanted = [...new Set(labelIds)];
  return ctx.db.transaction(async (tx) => {
    const [contact] = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.accountId, ctx.accountId), eq(contacts.id, id)))
      .for("update");
    if (!contact) throw new NotFoundError("Contact");
    const found = wanted.length ? await tx.select().from(labels).where(and(eq(labels.accountId, ctx.accountId), inArray(labels.id, wanted))) : [];
    const unknown = labelIds.findIndex((labelId) => !found.some((l) => l.id === labelId));
    if (unknown >= 0) throw invalidField(`label_ids.${unknown}`, "is not a label of this account");
    const next: LabelRef[] = wanted.map((labelId) => found.find((l) => l.id === labelId)!).map((l) => ({ id: l.id, name: l.name, color: l.color }));
    await tx.update(contacts).set({ labels: next, updatedAt: new Date() }).where(eq(contacts.id, contact.id));
    return { contact_id: contact.id, labels: next };
  });
}
