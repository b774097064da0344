import { newId } from "@/lib/platform/ids";
import type { QualityUpdate } from "@/lib/network/types";
import { healthAfter } from "@/lib/network/number-health";
import type { SystemContext } from "@/lib/auth/context";
import { findNumberIntegration, updateNumberIntegration } from "@/lib/network/store";
import { insertNotifications, selectAdminIds } from "./store";

/**
 * Applies the network's report on the number's quality rating or messaging limit to the
 * account's number (shown in Settings → Number). A drop (quality fell, the limit was lowered)
 * becomes a `number_health` notification for every admin of the account; a recovery or an
 * unchanged report notifies nobody.
 */
export async function applyNumberQualityUpdate(ctx: SystemContext, { accountId, update }: { accountId: string; update: QualityUpdate }) {
  return ctx.db.transaction(async (tx) => {
    const row = await findNumberIntegration(tx, accountId, { forUpdate: true });
    if (!row) return { drop: null };
    const next = healthAfter({ qualityRating: row.qualityRating, messagingLimitTier: row.messagingLimitTier }, update);
    const now = new Date();
    await updateNumberIntegration(tx, accountId, { qualityRating: next.qualityRating, messagingLimitTier: next.messagingLimitTier, healthUpdatedAt: now });
    if (next.drop) {
      const admins = await selectAdminIds(tx, accountId);
      await insertNotifications(
        tx,
        admins.map((userId) => ({ id: newId("notification", now), accountId, userId, type: "number_health" as const, message: next.drop, createdAt: now })),
      );
    }
    return { drop: next.drop };
  });
}
