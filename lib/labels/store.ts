import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { conversations, labels } from "@/db/schema";
import { hasLabel } from "@/lib/conversations/store";

/** One label of the account. */
export async function findLabel(executor: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await executor.select().from(labels).where(and(eq(labels.accountId, accountId), eq(labels.id, id))).limit(1);
  return row;
}

/** The account's labels, for a keyset page. */
export function selectLabels(executor: Executor) {
  return executor.select().from(labels).$dynamic();
}

/** Of these ids, the account's labels. */
export async function findLabels(executor: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  return executor
    .select()
    .from(labels)
    .where(and(eq(labels.accountId, accountId), inArray(labels.id, ids)));
}

/** Stores a label unless its name is taken (the unique index on lower(name)): undefined then. */
export async function insertLabelUnlessTaken(executor: Executor, values: typeof labels.$inferInsert) {
  const [row] = await executor.insert(labels).values(values).onConflictDoNothing().returning();
  return row;
}

/** Deletes a label of the account and returns it (undefined when there is none). */
export async function deleteLabelRow(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx
    .delete(labels)
    .where(and(eq(labels.accountId, accountId), eq(labels.id, id)))
    .returning();
  return row;
}

/** Takes the label off every conversation of the account that carries it. */
export async function removeLabelFromConversations(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  await tx
    .update(conversations)
    .set({
      labels: sql`coalesce((select jsonb_agg(item) from jsonb_array_elements(${conversations.labels}) as item where item->>'id' <> ${id}), '[]'::jsonb)`,
    })
    .where(and(eq(conversations.accountId, accountId), hasLabel(id)));
}
