import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { campaignRecipients } from "@/db/schema";

/** The queries that make a part of a campaign's share ready to send. */

/** Of these ids, the campaign's recipients still pending, in id order, locked (skipping those another process holds). */
export async function lockPendingRecipients(db: Executor, { campaignId, ids }: { campaignId: string; ids: number[] }) {
  return db
    .select()
    .from(campaignRecipients)
    .where(and(inArray(campaignRecipients.id, ids), eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.status, "pending")))
    .orderBy(asc(campaignRecipients.id))
    .for("update", { skipLocked: true });
}

/** Sets each recipient's status, reason and message where given (null keeps the stored value), in one statement. */
export async function updateRecipients(
  db: Executor,
  { updates, at }: { updates: { id: number; status: string | null; reason: string | null; message_id: string | null }[]; at: Date },
) {
  await db.execute(sql`update ${campaignRecipients} set
      status = coalesce(x.status, ${campaignRecipients.status}), reason = coalesce(x.reason, ${campaignRecipients.reason}),
      message_id = coalesce(x.message_id, ${campaignRecipients.messageId}), updated_at = ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as x(id bigint, status text, reason text, message_id text)
    where ${campaignRecipients.id} = x.id`);
}
