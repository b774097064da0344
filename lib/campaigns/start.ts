import type { Executor } from "@/db";
import type { Campaign } from "@/db/schema";
import { estimateCost, templateCategory } from "./audience";
import { audienceCondition, skipReasonSql } from "./store/audience";
import { loadCampaignSettings } from "./settings";
import { type AudienceCursor, findCampaignById, fixEstimatedCost, markCampaignStarted, pendingPhones, writeAudiencePart } from "./store/sending";

/**
 * Starts a scheduled campaign: moves it to `sending` (in a short transaction that finds it
 * still scheduled: a second run finds it started), then writes its audience (writeAudience).
 */
export async function startCampaign(db: Executor, campaign: Campaign, now: Date): Promise<Campaign | undefined> {
  return markCampaignStarted(db, campaign.id, now);
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
export async function writeAudience(db: Executor, campaign: Campaign): Promise<Campaign | undefined> {
  const settings = await loadCampaignSettings(db, campaign.accountId);
  const reason = skipReasonSql(settings.require_opt_in);
  const condition = audienceCondition(campaign.accountId, campaign.audience);
  let after: AudienceCursor | undefined;
  for (;;) {
    const last = await writeAudiencePart(db, { campaign, condition, reason, after, limit: AUDIENCE_PART });
    if (last === undefined) return findCampaignById(db, campaign.id);
    if (last === null) break;
    after = last;
  }
  const category = (await templateCategory(db, campaign.accountId, campaign.template)) ?? "MARKETING";
  const cost = await estimateCost(db, { accountId: campaign.accountId, category, phones: await pendingPhones(db, campaign.id) });
  return fixEstimatedCost(db, campaign.id, cost);
}
