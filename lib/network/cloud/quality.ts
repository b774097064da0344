/** The network's `phone_number_quality_update` notifications: a number's quality or messaging limit changed. */
import { z } from "zod";
import type { QualityUpdate } from "@/lib/network/types";

const token = z.string().max(64).regex(/^[A-Za-z0-9_]+$/);
const valueSchema = z.looseObject({
  display_phone_number: z.string().max(32),
  event: token,
  current_limit: token.optional().catch(undefined),
  old_limit: token.optional().catch(undefined),
  // The newer name of the limit; preferred when both are present.
  max_daily_conversations_per_business: token.optional().catch(undefined),
});

/** The update a change reports (`entryId` is its business account), or null when malformed. */
export function parseQualityChange(entryId: string | undefined, value: unknown): QualityUpdate | null {
  const parsed = valueSchema.safeParse(value);
  if (!parsed.success) return null;
  const digits = parsed.data.display_phone_number.replace(/\D/g, "");
  if (!digits) return null;
  const currentLimit = parsed.data.max_daily_conversations_per_business ?? parsed.data.current_limit;
  return {
    ...(entryId && entryId.length <= 64 ? { businessAccountId: entryId } : {}),
    displayPhoneNumber: digits,
    event: parsed.data.event.toUpperCase(),
    ...(currentLimit ? { currentLimit: currentLimit.toUpperCase() } : {}),
    ...(parsed.data.old_limit ? { oldLimit: parsed.data.old_limit.toUpperCase() } : {}),
  };
}
