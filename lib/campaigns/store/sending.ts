import { and, asc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { type Campaign, type CampaignCost, campaignRecipients, campaigns, contacts, messages } from "@/db/schema";

/**
 * The queries of a campaign's sending (the `campaign.dispatch` job): its recipients' rows from
 * `pending` to `sent`/`failed`, and the campaign's own row while it sends. Each takes the
 * executor it runs on (the process's pool, or the caller's transaction).
 */

/** What a message that fails because its send was cut short says. */
const INTERRUPTED = {
  code: "interrupted",
  message: "Sending stopped while this message was being handed to the network (a crash or restart); it may have arrived, so it is not sent again.",
};

/** Recipients whose contact may be messaged now (checked again in the statement that claims them). */
const mayMessage = (requireOptIn: boolean) =>
  sql`exists (select 1 from ${contacts} c where c.id = ${campaignRecipients.contactId} and not c.blocked
    and c.marketing_opt_in is distinct from false and (c.marketing_opt_in is not null or not ${requireOptIn}::boolean))`;

export async function findCampaignById(db: Executor, id: string): Promise<Campaign | undefined> {
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  return campaign;
}

/** Whether the campaign is still sending, and by which pacer. */
export async function campaignState(db: Executor, id: string) {
  const [current] = await db.select({ status: campaigns.status, generation: campaigns.dispatchGeneration }).from(campaigns).where(eq(campaigns.id, id));
  return current;
}

/** Up to `limit` ids of the campaign's recipients due now, after `after`, in id order. */
export async function dueRecipientIds(db: Executor, { campaignId, after, limit, now }: { campaignId: string; after: number; limit: number; now: Date }) {
  const rows = await db
    .select({ id: campaignRecipients.id })
    .from(campaignRecipients)
    .where(
      and(
        eq(campaignRecipients.campaignId, campaignId),
        eq(campaignRecipients.status, "pending"),
        gt(campaignRecipients.id, after),
        sql`(${campaignRecipients.runAt} is null or ${campaignRecipients.runAt} <= ${now.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(asc(campaignRecipients.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Claims recipients (`pending` → `sending`) in one committed statement just before their turn,
 * only while the campaign is sending by this pacer and their contact may still be messaged (an
 * opt-out that arrives meanwhile is honoured; such a recipient is skipped by the next share).
 */
export async function claimRecipients(db: Executor, campaign: Campaign, ids: number[], requireOptIn: boolean) {
  if (!ids.length) return new Set<number>();
  const rows = await db
    .update(campaignRecipients)
    .set({ status: "sending", attempts: sql`${campaignRecipients.attempts} + 1`, updatedAt: new Date() })
    .where(
      and(
        inArray(campaignRecipients.id, ids),
        eq(campaignRecipients.status, "pending"),
        sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaign.id} and ${campaigns.status} = 'sending' and ${campaigns.dispatchGeneration} = ${campaign.dispatchGeneration})`,
        mayMessage(requireOptIn),
      ),
    )
    .returning({ id: campaignRecipients.id });
  return new Set(rows.map((r) => r.id));
}

/** How many recipients are still pending or sending, and when the soonest pending one is due. */
export async function recipientsLeft(db: Executor, campaignId: string) {
  const [left] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'pending')`,
      sending: sql<number>`count(*) filter (where ${campaignRecipients.status} = 'sending')`,
      soonest: sql<string | null>`min(${campaignRecipients.runAt}) filter (where ${campaignRecipients.status} = 'pending')`,
    })
    .from(campaignRecipients)
    .where(and(eq(campaignRecipients.campaignId, campaignId), inArray(campaignRecipients.status, ["pending", "sending"])));
  return { pending: Number(left.pending), sending: Number(left.sending), soonest: left.soonest ? new Date(left.soonest) : null };
}

/** A campaign still sending is `done`. */
export async function finishCampaign(db: Executor, campaignId: string, at: Date) {
  await db
    .update(campaigns)
    .set({ status: "done", finishedAt: at, updatedAt: at })
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, "sending")));
}

/**
 * Recipients still `sending` since before `cutoff`, claimed by a run that died: `sent` when their
 * message shows the network took it, `failed` with its code when refused, otherwise `failed`
 * `interrupted`, with their queued message failed the same way (never sent again).
 */
export async function settleStaleSending(db: Executor, { campaignId, cutoff, at }: { campaignId: string; cutoff: Date; at: Date }) {
  await db.execute(sql`
    with stale as (
      select r.id, m.status as message_status, m.error ->> 'code' as error_code
      from ${campaignRecipients} r left join ${messages} m on m.id = r.message_id
      where r.campaign_id = ${campaignId} and r.status = 'sending' and r.updated_at < ${cutoff.toISOString()}::timestamptz
    ),
    settled as (
      update ${campaignRecipients} r set
        status = case when s.message_status in ('sent', 'delivered', 'read') then 'sent' else 'failed' end,
        reason = case when s.message_status in ('sent', 'delivered', 'read') then null
          when s.message_status = 'failed' then coalesce(s.error_code, 'send_failed') else 'interrupted' end,
        updated_at = ${at.toISOString()}::timestamptz
      from stale s where r.id = s.id and r.status = 'sending'
      returning r.message_id, r.reason
    )
    update ${messages} set status = 'failed', error = ${JSON.stringify(INTERRUPTED)}::jsonb, updated_at = ${at.toISOString()}::timestamptz
    where id in (select message_id from settled where reason = 'interrupted') and status = 'queued'`);
  // A message the network's status recorded while this ran (after it read the message as queued,
  // before the message's update above, which then left it alone): its recipient follows it.
  await followReachedMessages(db, sql`r.campaign_id = ${campaignId}`, at);
}

/** Recipients whose message's answer was recorded: `sent`, or `failed` with the network's code. */
export async function settleAnswered(db: Executor, ids: number[], at: Date) {
  if (!ids.length) return;
  await db.execute(sql`update ${campaignRecipients} r set
      status = case when m.status = 'failed' then 'failed' else 'sent' end,
      reason = case when m.status = 'failed' then coalesce(m.error ->> 'code', 'send_failed') else null end,
      updated_at = ${at.toISOString()}::timestamptz
    from ${messages} m
    where m.id = r.message_id and r.status = 'sending' and r.id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::bigint)`);
}

/**
 * Recipients (of `which`) failed `interrupted` whose message the network has since reported it
 * took: as the message shows now (`sent`, or `failed` with the network's code).
 */
async function followReachedMessages(db: Executor, which: SQL, at: Date) {
  await db.execute(sql`update ${campaignRecipients} r set
      status = case when m.status = 'failed' then 'failed' else 'sent' end,
      reason = case when m.status = 'failed' then coalesce(m.error ->> 'code', 'send_failed') else null end,
      updated_at = ${at.toISOString()}::timestamptz
    from ${messages} m
    where m.id = r.message_id and m.account_id = r.account_id and r.status = 'failed' and r.reason = 'interrupted'
      and m.status <> 'queued' and not (m.status = 'failed' and m.error ->> 'code' = 'interrupted') and ${which}`);
}

/** `followReachedMessages` for the recipients of these messages of the account. */
export async function settleReachedNetwork(db: Executor, { accountId, messageIds, at }: { accountId: string; messageIds: string[]; at: Date }) {
  if (!messageIds.length) return;
  await followReachedMessages(db, sql`r.account_id = ${accountId} and r.message_id in (select jsonb_array_elements_text(${JSON.stringify(messageIds)}::jsonb))`, at);
}

/** Recipients the network refused for now: back in line, due at their own time. */
export async function putBackInLine(db: Executor, retries: { id: number; runAt: Date }[], at: Date) {
  if (!retries.length) return;
  const rows = retries.map((r) => ({ id: r.id, run_at: r.runAt.toISOString() }));
  await db.execute(sql`update ${campaignRecipients} set status = 'pending', run_at = x.run_at, updated_at = ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id bigint, run_at timestamptz)
    where ${campaignRecipients.id} = x.id and ${campaignRecipients.status} = 'sending'`);
}

/** Recipients whose send was cut short (whether the network got it is unknown): failed, never again. */
export async function failInterrupted(db: Executor, lost: { id: number; messageId: string }[], at: Date) {
  if (!lost.length) return;
  await db.transaction(async (tx) => {
    await tx
      .update(campaignRecipients)
      .set({ status: "failed", reason: "interrupted", updatedAt: at })
      .where(inArray(campaignRecipients.id, lost.map((r) => r.id)));
    await tx
      .update(messages)
      .set({ status: "failed", error: INTERRUPTED, updatedAt: at })
      .where(and(inArray(messages.id, lost.map((r) => r.messageId)), eq(messages.status, "queued")));
    // One the network's status recorded meanwhile (the update above left it alone): its recipient follows it.
    await followReachedMessages(tx, sql`r.id in (select (jsonb_array_elements_text(${JSON.stringify(lost.map((r) => r.id))}::jsonb))::bigint)`, at);
  });
}

/**
 * Moves a scheduled campaign to `sending` in a short transaction that finds it still scheduled
 * (a second run finds it started); returns the campaign as it is then.
 */
export async function markCampaignStarted(db: Executor, campaignId: string, now: Date): Promise<Campaign | undefined> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, campaignId)).for("update");
    if (!current || current.status !== "scheduled") return current;
    const [updated] = await tx
      .update(campaigns)
      .set({ status: "sending", startedAt: now, estimatedCost: null, updatedAt: now })
      .where(eq(campaigns.id, current.id))
      .returning();
    return updated;
  });
}

/** The last contact of a part of the audience written, for the next part to follow. */
export type AudienceCursor = { at: string; id: string };

/**
 * Writes the recipient rows of one part of the audience (`limit` contacts after `after`, in the
 * audience's order) in a transaction that finds the campaign still sending (or paused): each row
 * with its idempotency key, `skipped` with `reason` where it is not null. Returns the part's last
 * contact (null: the audience is written), or undefined when the campaign stopped meanwhile.
 */
export async function writeAudiencePart(
  db: Executor,
  { campaign, condition, reason, after, limit }: { campaign: Campaign; condition: SQL; reason: SQL; after?: AudienceCursor; limit: number },
): Promise<AudienceCursor | null | undefined> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaign.id)).for("update");
    if (current?.status !== "sending" && current?.status !== "paused") return undefined;
    const at = new Date().toISOString();
    // The last contact of the part, its time as text (microseconds kept) for the next part to follow.
    const [row] = rowsOf<AudienceCursor>(
      await tx.execute(sql`
        with part as (
          select ${contacts.accountId} as account_id, ${contacts.id} as contact_id, ${contacts.createdAt} as created_at, ${reason} as reason
          from ${contacts}
          where ${condition}
            ${after ? sql`and (${contacts.createdAt}, ${contacts.id}) > (${after.at}::timestamptz, ${after.id}::text)` : sql``}
          order by ${contacts.createdAt}, ${contacts.id}
          limit ${limit}
        ),
        written as (
          insert into ${campaignRecipients} (account_id, campaign_id, contact_id, idempotency_key, status, reason, updated_at)
          select account_id, ${campaign.id}::text, contact_id, ${campaign.id}::text || ':' || contact_id,
            case when reason is null then 'pending' else 'skipped' end, reason, ${at}::timestamptz
          from part order by created_at, contact_id
          on conflict do nothing
        )
        select created_at::text as at, contact_id as id from part order by created_at desc, contact_id desc limit 1`),
    );
    return row ?? null;
  });
}

/** The phone numbers of the campaign's pending recipients (what its cost is estimated on). */
export async function pendingPhones(db: Executor, campaignId: string) {
  const rows = await db
    .select({ phone: contacts.phone })
    .from(campaignRecipients)
    .innerJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
    .where(and(eq(campaignRecipients.campaignId, campaignId), eq(campaignRecipients.status, "pending")));
  return rows.map((r) => r.phone);
}

/** Fixes the campaign's cost estimate, which marks its audience as written (once). */
export async function fixEstimatedCost(db: Executor, campaignId: string, cost: CampaignCost): Promise<Campaign | undefined> {
  const [updated] = await db
    .update(campaigns)
    .set({ estimatedCost: cost })
    .where(and(eq(campaigns.id, campaignId), sql`${campaigns.estimatedCost} is null`))
    .returning();
  return updated ?? (await findCampaignById(db, campaignId));
}
