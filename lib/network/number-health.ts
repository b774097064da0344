import type { QualityUpdate } from "./types";

// The messaging limit tiers, lowest first (how many customers a day the number may start with).
const tierOrder = ["TIER_50", "TIER_250", "TIER_1K", "TIER_2K", "TIER_10K", "TIER_100K", "TIER_UNLIMITED"];
const qualityOrder: Record<string, number> = { RED: 0, YELLOW: 1, GREEN: 2 };

export type NumberHealth = { qualityRating: string | null; messagingLimitTier: string | null };

/** "TIER_1K" → "1,000 customers a day"; other values as the network names them. */
function describeTier(tier: string | null): string {
  if (!tier) return "Not reported yet";
  if (tier === "TIER_UNLIMITED") return "Unlimited";
  if (tier === "TIER_NOT_SET") return "Not set yet (no message sent)";
  const match = /^TIER_(\d+)(K?)$/.exec(tier);
  if (!match) return tier;
  return `${(Number(match[1]) * (match[2] ? 1000 : 1)).toLocaleString("en-US")} customers a day`;
}

function describeQuality(rating: string | null): string {
  return rating === "GREEN" ? "High (green)" : rating === "YELLOW" ? "Medium (yellow)" : rating === "RED" ? "Low (red)" : "Not reported yet";
}

/**
 * The number's health after a quality update, and the drop to tell admins about, if any: the
 * network flags a number whose quality fell to low (FLAGGED, red) and lifts the flag when it
 * recovers (UNFLAGGED, green); a lower messaging limit tier (or a DOWNGRADE) is a drop too.
 */
export function healthAfter(previous: NumberHealth, update: QualityUpdate): NumberHealth & { drop: string | null } {
  const qualityRating = update.event === "FLAGGED" ? "RED" : update.event === "UNFLAGGED" ? "GREEN" : previous.qualityRating;
  const messagingLimitTier = update.currentLimit ?? previous.messagingLimitTier;
  const drops: string[] = [];
  const before = previous.qualityRating ? qualityOrder[previous.qualityRating] : undefined;
  const after = qualityRating ? qualityOrder[qualityRating] : undefined;
  if (after !== undefined && (before === undefined ? qualityRating !== "GREEN" : after < before)) {
    drops.push(`quality rating dropped to ${describeQuality(qualityRating).toLowerCase()}`);
  }
  const oldTier = update.oldLimit ?? previous.messagingLimitTier;
  const tierBefore = oldTier ? tierOrder.indexOf(oldTier) : -1;
  const tierAfter = messagingLimitTier ? tierOrder.indexOf(messagingLimitTier) : -1;
  if ((tierBefore >= 0 && tierAfter >= 0 && tierAfter < tierBefore) || (update.event === "DOWNGRADE" && messagingLimitTier)) {
    drops.push(`messaging limit lowered to ${describeTier(messagingLimitTier)}`);
  }
  const unique = [...new Set(drops)];
  return { qualityRating, messagingLimitTier, drop: unique.length > 0 ? `The number's ${unique.join(" and its ")}.` : null };
}
