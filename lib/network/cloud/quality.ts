/** The network's `phone_number_quality_update` notifications: a number's quality or messaging limit changed. */
import { z } from "zod";

export type QualityUpdate = {
  /** The business account (WABA) the notification came for. */
  businessAccountId?: string;
  /** The business number, digits only. */
  displayPhoneNumber: string;
  /** FLAGGED, UNFLAGGED, DOWNGRADE, UPGRADE, ONBOARDING, THROUGHPUT_UPGRADE… */
  event: string;
  /** The messaging limit tier now (TIER_50 … TIER_UNLIMITED), when given. */
  currentLimit?: string;
  oldLimit?: string;
};

const token = z.string().max(64).regex(/^[A-Za-z0-9_]+$/);
const valueSchema = z.looseObject({
  display_phone_number: z.string().max(32),
  event: token,
  current_limit: token.optional().catch(undefined),
  old_limit: token.optional().catch(undefined),
  // The newer name of the limit; preferred when both are present.
  max_daily_conversations_per_business: token.optional().catch(undefined),
});
const envelopeSchema = z.looseObject({
  entry: z.array(
    z.looseObject({ id: z.string().max(64).optional().catch(undefined), changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })).catch([]) }).nullable().catch(null),
  ),
});

/** Every well-formed quality update of a webhook body; malformed ones are left out. */
export function parseQualityUpdates(payload: unknown): QualityUpdate[] {
  const parsed = envelopeSchema.safeParse(payload);
  if (!parsed.success) return [];
  const updates: QualityUpdate[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry?.changes ?? []) {
      if (change.field !== "phone_number_quality_update") continue;
      const value = valueSchema.safeParse(change.value);
      if (!value.success) continue;
      const digits = value.data.display_phone_number.replace(/\D/g, "");
      if (!digits) continue;
      const currentLimit = value.data.max_daily_conversations_per_business ?? value.data.current_limit;
      updates.push({
        ...(entry?.id ? { businessAccountId: entry.id } : {}),
        displayPhoneNumber: digits,
        event: value.data.event.toUpperCase(),
        ...(currentLimit ? { currentLimit: currentLimit.toUpperCase() } : {}),
        ...(value.data.old_limit ? { oldLimit: value.data.old_limit.toUpperCase() } : {}),
      });
    }
  }
  return updates;
}
