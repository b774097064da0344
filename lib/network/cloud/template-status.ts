/** The `message_template_status_update` change: the network's review of a template. */
import { z } from "zod";
import type { TemplateStatusUpdate } from "@/lib/network/types";

const templateUpdateSchema = z.looseObject({
  event: z.string().min(1),
  message_template_id: z.union([z.string(), z.number()]).optional(),
  message_template_name: z.string().optional(),
  message_template_language: z.string().optional(),
  reason: z.string().nullable().optional(),
});

/** The review a change reports for the business account `entryId`, or null (logged) when malformed. */
export function parseTemplateStatusChange(entryId: string | undefined, value: unknown): TemplateStatusUpdate | null {
  const parsed = templateUpdateSchema.safeParse(value);
  if (!parsed.success || !entryId) {
    console.warn("network webhook: skipped an item (malformed_template_status)");
    return null;
  }
  return {
    businessAccountId: entryId,
    ...(parsed.data.message_template_id !== undefined ? { networkTemplateId: String(parsed.data.message_template_id) } : {}),
    ...(parsed.data.message_template_name ? { name: parsed.data.message_template_name } : {}),
    ...(parsed.data.message_template_language ? { language: parsed.data.message_template_language } : {}),
    event: parsed.data.event,
    ...(parsed.data.reason && parsed.data.reason !== "NONE" ? { reason: parsed.data.reason } : {}),
  };
}
