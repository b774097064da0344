/** A customer's edit or deletion of an earlier message, as the network's `messages` webhook carries it. */
import { z } from "zod";
import type { InboundRevision } from "@/lib/network/types";

const MEDIA_KINDS = ["image", "video", "document", "audio", "sticker"] as const;

// `edit.message` is the edited message as a message object of its own kind: text or a media
// kind with its new caption.
const editSchema = z.looseObject({
  original_message_id: z.string().min(1),
  message: z.looseObject({
    type: z.string().optional(),
    text: z.looseObject({ body: z.string() }).optional().catch(undefined),
    ...Object.fromEntries(MEDIA_KINDS.map((kind) => [kind, z.looseObject({ caption: z.string().optional() }).optional().catch(undefined)])),
  }),
});
const revokeSchema = z.looseObject({ original_message_id: z.string().min(1) });

export const isRevisionType = (type: string) => type === "edit" || type === "revoke";

/** The revision a message object of type `edit` or `revoke` describes, or null when malformed. */
export function toRevision({
  message,
  from,
  fromUserId,
  timestamp,
  phoneNumberId,
}: {
  message: { id: string; type: string } & Record<string, unknown>;
  from: string;
  fromUserId?: string;
  timestamp: Date;
  phoneNumberId?: string;
}): InboundRevision | null {
  const base = { revisionId: message.id, from, ...(fromUserId ? { fromUserId } : {}), timestamp, ...(phoneNumberId ? { phoneNumberId } : {}) };
  if (message.type === "revoke") {
    const parsed = revokeSchema.safeParse(message.revoke);
    return parsed.success ? { ...base, kind: "revoke", networkMessageId: parsed.data.original_message_id } : null;
  }
  const parsed = editSchema.safeParse(message.edit);
  if (!parsed.success) return null;
  const edited = parsed.data.message as Record<string, { body?: string; caption?: string } | undefined>;
  const text = edited.text?.body;
  const caption = MEDIA_KINDS.map((kind) => edited[kind]?.caption).find((c) => c !== undefined);
  if (text === undefined && caption === undefined) return null;
  return {
    ...base,
    kind: "edit",
    networkMessageId: parsed.data.original_message_id,
    ...(text !== undefined ? { text } : {}),
    ...(caption !== undefined ? { caption } : {}),
  };
}
