import { and, eq, isNull } from "drizzle-orm";
import { notifications, numberIntegrations, users } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import type { QualityUpdate } from "@/lib/network/types";
import { healthAfter } from "@/lib/network/number-health";
import type { SystemContext } from "@/lib/auth/context";

/**
 * Applies the network's report on the number's quality rating or messaging limit to the
 * account's number (shown in Settings → Number). A drop (quality fell, the limit was lowered)
 * becomes a `number_health` notification for every admin of the account; a recovery or an
 * unchanged report notifies nobody.
 */
export async function applyNumberQualityUpdate(ctx: SystemContext, { accountId, update }: { accountId: string; update: QualityUpdate }) {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(numberIntegrations).where(eq(numberIntegrations.accountId, accountId)).for("update");
    if (!row) return { drop: null };
    const next = healthAfter({ qualityRating: row.qualityRating, messagingLimitTier: row.messagingLimitTier }, update);
    const now = new Date();
    await tx
      .update(numberIntegrations)
      .set({ qualityRating: next.qualityRating, messagingLimitTier: next.messagingLimitTier, healthUpdatedAt: now })
      .where(eq(numberIntegrations.accountId, accountId));
    if (next.drop) {
      const admins = await tx.select({ id: users.id }).from(users).where(and(eq(users.accountId, accountId), eq(users.role, "admin"), isNull(users.deletedAt)));
      if (admins.length > 0) {
        await tx.insert(notifications).values(
          admins.map((admin) => ({ id: newId("notification", now), accountId, userId: admin.id, type: "number_health" as const, message: next.drop, createdAt: now })),
        );
      }
    }
    return { drop: next.drop };
  });
}
