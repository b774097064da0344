import { auditChange } from "@/lib/audit/record-audit";
import "server-only";
import { type LabelRef, labels } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { recordConversationActivity } from "@/lib/conversations/activity-hooks";
import { presentConversation } from "@/lib/conversations/schemas";
import { findConversation, updateConversationRow } from "@/lib/conversations/store";
import { ConflictError, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { type CreateLabelInput, presentLabel } from "./schemas";
import { deleteLabelRow, findLabels, insertLabelUnlessTaken, removeLabelFromConversations, selectLabels } from "./store";

/** Oldest first, so the list keeps the order labels were made in. */
export async function listLabels({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectLabels(ctx.db), {
    table: labels,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (l) => ({ t: l.createdAt, id: l.id }),
    present: presentLabel,
  });
}

const duplicate = () => new ConflictError("A label with this name already exists.");

export async function createLabel({ ctx, input }: { ctx: ServiceContext; input: CreateLabelInput }) {
  const now = new Date();
  // The unique index on lower(name) settles a race; the insert answers 409 either way.
  const row = await insertLabelUnlessTaken(ctx.db, { id: newId("label", now), accountId: ctx.accountId, name: input.name, color: input.color, createdAt: now });
  if (!row) throw duplicate();
  await auditChange(ctx, "label.created", { type: "label", id: row.id });
  return presentLabel(row);
}

/** Deletes the label and takes it off every conversation that carried it. */
export async function deleteLabel({ ctx, id }: { ctx: ServiceContext; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const row = await deleteLabelRow(tx, { accountId: ctx.accountId, id });
    if (!row) throw new NotFoundError("Label");
    await removeLabelFromConversations(tx, { accountId: ctx.accountId, id });
    await auditChange(ctx, "label.deleted", { type: "label", id }, tx);
  });
}

/**
 * Sets the conversation's labels to exactly `labelIds` (each a label of the account, else
 * 400 naming it). Adds and removals go to the activity trail.
 */
export async function setConversationLabels({ ctx, id, labelIds }: { ctx: ServiceContext<"user">; id: string; labelIds: string[] }) {
  const wanted = [...new Set(labelIds)];
  return ctx.db.transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    const found = wanted.length ? await findLabels(tx, { accountId: ctx.accountId, ids: wanted }) : [];
    const unknown = labelIds.findIndex((labelId) => !found.some((l) => l.id === labelId));
    if (unknown >= 0) throw invalidField(`label_ids.${unknown}`, "is not a label of this account");
    const next: LabelRef[] = found.map((l) => ({ id: l.id, name: l.name, color: l.color }));
    const before = new Set(current.labels.map((l) => l.id));
    const added = next.filter((l) => !before.has(l.id));
    const removed = current.labels.filter((l) => !wanted.includes(l.id));
    if (added.length === 0 && removed.length === 0) return presentConversation(current);
    const now = new Date();
    const row = await updateConversationRow(tx, { id: current.id, set: { labels: next, updatedAt: now } });
    const actor = { type: "user" as const, id: ctx.user.id, name: ctx.user.name };
    for (const label of added) await recordConversationActivity(tx, { accountId: ctx.accountId, conversationId: row.id, type: "labeled", actor, data: { label } });
    for (const label of removed) await recordConversationActivity(tx, { accountId: ctx.accountId, conversationId: row.id, type: "unlabeled", actor, data: { label } });
    return presentConversation({ ...row, contact: current.contact });
  });
}
