import { and, eq, sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db";
import { type Campaign, campaignRecipients, campaigns, contacts } from "@/db/schema";
import { audienceCondition, estimateCost, skipReasonSql, templateCategory } from "./audience";
import { loadCampaignSettings } from "./settings";

/**
 * Starts a scheduled campaign: moves it to `sending` (in a short transaction that finds it
 * still scheduled: a second run finds it started), then writes its audience (writeAudience).
 */
export async function startCampaign(campaign: Campaign, now: Date): Promise<Campaign | undefined> {
  return getDb().transaction(async (tx) => {
    const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for("update");
    if (!current || current.status !== "scheduled") return current;
    const [updated] = await tx
      .update(campaigns)
      .set({ status: "sending", startedAt: now, estimatedCost: null, updatedAt: now })
      .where(eq(campaigns.id, current.id))
      .returning();
    return updated;
  });
}

/** Contacts written per part of the audience: a part's transaction holds the embedded database for milliseconds. */
const AUDIENCE_PART = 500;

/**
 * Writes one recipient row per contact of the audience (each with its idempotency key, the
 * campaign and contact ids: a second row for the same person cannot exist), `skipped` with the
 * reason for the blocked, the opted out and (when consent is required) those never asked, in
 * the audience's order; then fixes the cost estimate, which marks the audience as written. In
 * parts, each its own short transaction that finds the campaign still sending (or paused): a
 * campaign cancelled meanwhile gets no more rows, and an agent's send never waits behind the
 * whole audience. A run that dies part-way is taken up by the next one (rows already written
 * are left as they are).
 */
export async function writeAudience(campaign: Campaign): Promise<Campaign | undefined> {
  const db = getDb();
  const settings = await loadCampaignSettings(db, campaign.accountId);
  const reason = skipReasonSql(settings.require_opt_in);
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const last = await db.transaction(async (tx) => {
      const [current] = await tx.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, campaign.id)).for("update");
      if (current?.status !== "sending" && current?.status !== "paused") return undefined;
      const at = new Date().toISOString();
      // The last contact of the part, its time as text (microseconds kept) for the next part to follow.
      const [row] = rowsOf<{ at: string; id: string }>(
        await tx.execute(sql`
          with part as (
            select ${contacts.accountId} as account_id, ${contacts.id} as contact_id, ${contacts.createdAt} as created_at, ${reason} as reason
            from ${contacts}
            where ${audienceCondition(campaign.accountId, campaign.audience)}
              ${after ? sql`and (${contacts.createdAt}, ${contacts.id}) > (${after.at}::timestamptz, ${after.id}::text)` : sql``}
            order by ${contacts.createdAt}, ${contacts.id}
            limit ${AUDIENCE_PART}
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
    if (last === undefined) return (await db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0];
    if (last === null) break;
    after = last;
  }
  const category = (await templateCategory(db, campaign.accountId, campaign.template)) ?? "MARKETING";
  const phones = await db
    .select({ phone: contacts.phone })
    .from(campaignRecipients)
    .innerJoin(contacts, eq(contacts.id, campaignRecipients.contactId))
    .where(and(eq(campaignRecipients.campaignId, campaign.id), eq(campaignRecipients.status, "pending")));
  const cost = await estimateCost(db, { accountId: campaign.accountId, category, phones: phones.map((p) => p.phone) });
  const [updated] = await db
    .update(campaigns)
    .set({ estimatedCost: cost })
    .where(and(eq(campaigns.id, campaign.id), sql`${campaigns.estimatedCost} is null`))
    .returning();
  return updated ?? (await db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0];
}
