import { and, eq, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { type Campaign, campaignRecipients, campaigns } from "@/db/schema";
import type { RecipientStatus } from "../schemas";

/** The queries of campaigns as the API manages them: their rows, their recipients' counts and list. */

/**
 * A recipient's status as shown, from its row and its message: the message's own status once
 * sent (statuses from the network move it), `replied` once the customer wrote after it.
 */
const RECIPIENT_STATUS = sql.raw(`case
  when r.status in ('pending', 'sending') then 'queued'
  when r.status = 'skipped' then 'skipped'
  when r.status = 'failed' or m.status = 'failed' then 'failed'
  when exists (select 1 from messages reply where reply.conversation_id = m.conversation_id and reply.direction = 'inbound' and reply.created_at > m.created_at) then 'replied'
  when m.status = 'read' then 'read'
  when m.status = 'delivered' then 'delivered'
  else 'sent' end`);

/** Per campaign of these ids, its recipients counted by status as shown (one statement for the list). */
export async function countRecipientsByStatus(db: Executor, ids: string[]) {
  return rowsOf<Record<string, string | number>>(
    await db.execute(sql`select campaign_id, count(*) as recipients,
      count(*) filter (where s = 'queued') as queued,
      count(*) filter (where s in ('sent', 'delivered', 'read', 'replied')) as sent,
      count(*) filter (where s in ('delivered', 'read') or (s = 'replied' and ms in ('delivered', 'read'))) as delivered,
      count(*) filter (where s = 'read' or (s = 'replied' and ms = 'read')) as read,
      count(*) filter (where s = 'replied') as replied,
      count(*) filter (where s = 'failed') as failed,
      count(*) filter (where s = 'skipped') as skipped
      from (select r.campaign_id, m.status as ms, ${RECIPIENT_STATUS} as s from ${campaignRecipients} r left join messages m on m.id = r.message_id
        where r.campaign_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))) as x
      group by campaign_id`),
  );
}

/** One campaign of the account (locked for update when asked), or undefined. */
export async function findAccountCampaign(db: Executor, { accountId, id, lock = false }: { accountId: string; id: string; lock?: boolean }) {
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** The campaigns, for a keyset page. */
export function selectCampaigns(db: Executor) {
  return db.select().from(campaigns).$dynamic();
}

export async function insertCampaign(db: Executor, values: typeof campaigns.$inferInsert) {
  const [row] = await db.insert(campaigns).values(values).returning();
  return row;
}

/** Changes a campaign while it is a draft or scheduled; undefined when it is no longer one. */
export async function updateUnstartedCampaign(db: Executor, { id, set }: { id: string; set: Partial<typeof campaigns.$inferInsert> }) {
  const [row] = await db
    .update(campaigns)
    .set(set)
    .where(and(eq(campaigns.id, id), sql`${campaigns.status} in ('draft', 'scheduled')`))
    .returning();
  return row;
}

/** Changes a campaign's row and returns it. */
export async function updateCampaignRow(db: Executor, { id, set }: { id: string; set: Partial<typeof campaigns.$inferInsert> }): Promise<Campaign> {
  const [row] = await db.update(campaigns).set(set).where(eq(campaigns.id, id)).returning();
  return row;
}

export async function deleteCampaignRow(db: Executor, id: string) {
  await db.delete(campaigns).where(eq(campaigns.id, id));
}

/** Raises the campaign's dispatch generation and returns the new one. */
export async function raiseDispatchGeneration(db: Executor, campaignId: string) {
  const [row] = await db
    .update(campaigns)
    .set({ dispatchGeneration: sql`${campaigns.dispatchGeneration} + 1` })
    .where(eq(campaigns.id, campaignId))
    .returning({ generation: campaigns.dispatchGeneration });
  return row.generation;
}

/** Skips the campaign's recipients not messaged yet with the reason; returns the messages already written for them. */
export async function skipPendingRecipients(db: Executor, { campaignId, reason, at }: { campaignId: string; reason: string; at: Date }) {
  return db
    .update(campaignRecipients)
    .set({ status: "skipped", reason, updatedAt: at })
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.status, "pending")))
    .returning({ messageId: campaignRecipients.messageId });
}

export type RecipientRow = {
  id: string | number;
  contact_id: string;
  name: string | null;
  phone: string | null;
  s: RecipientStatus;
  reason: string | null;
  error_code: string | null;
  message_id: string | null;
  updated_at: string | Date;
};

/** Up to `limit + 1` of the campaign's recipients after the cursor, in the order they are sent, with their status as shown. */
export async function selectRecipients(
  db: Executor,
  { accountId, campaignId, limit, cursor, status }: { accountId: string; campaignId: string; limit: number; cursor?: string; status?: RecipientStatus },
) {
  return rowsOf<RecipientRow>(
    await db.execute(sql`select * from (
        select r.id, r.contact_id, c.name, c.phone, ${RECIPIENT_STATUS} as s, r.reason, m.error ->> 'code' as error_code, r.message_id,
          greatest(r.updated_at, m.updated_at) as updated_at
        from ${campaignRecipients} r join contacts c on c.id = r.contact_id left join messages m on m.id = r.message_id
        where r.campaign_id = ${campaignId} and r.account_id = ${accountId} ${cursor ? sql`and r.id > ${Number(cursor)}` : sql``}
      ) as x ${status ? sql`where s = ${status}` : sql``}
      order by id limit ${limit + 1}`),
  );
}
