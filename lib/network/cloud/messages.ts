/** The `messages` change of a notification: inbound messages, statuses and revisions. */
import { z } from "zod";
import type { InboundMessage, InboundRevision, MessageType, StatusUpdate } from "@/lib/network/types";
import { isNetworkUserId } from "@/lib/platform/fields";
import { contextOf, toInboundKind } from "./kinds";
import { isRevisionType, toRevision } from "./revisions";

const cloudMediaSchema = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().min(1),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
});

const cloudTimestampSchema = z.union([z.string(), z.number()]);

const cloudMessageSchema = z.looseObject({
  // A customer who adopted a username may come without a phone number: then only `from_user_id`
  // (their business-scoped user id) says who wrote.
  from: z.string().min(1).optional(),
  from_user_id: z.string().min(1).optional(),
  id: z.string().min(1),
  timestamp: cloudTimestampSchema,
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  image: cloudMediaSchema.optional(),
  document: cloudMediaSchema.optional(),
  audio: cloudMediaSchema.optional(),
  video: cloudMediaSchema.optional(),
  voice: cloudMediaSchema.optional(),
  interactive: z
    .looseObject({ type: z.string(), list_reply: z.looseObject({ id: z.string().min(1), title: z.string() }).optional() })
    .optional()
    .catch(undefined),
});

const cloudStatusErrorSchema = z.looseObject({
  code: z.union([z.number(), z.string()]).optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.looseObject({ details: z.string().optional() }).optional(),
});

const cloudStatusSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  timestamp: cloudTimestampSchema,
  recipient_id: z.string().optional(),
  // What the send carried as `biz_opaque_callback_data`; an odd one is dropped, never the status.
  biz_opaque_callback_data: z.string().min(1).max(512).optional().catch(undefined),
  errors: z.array(cloudStatusErrorSchema).optional(),
  // What the network charges for the message; an odd one is dropped, never the status.
  pricing: z
    .looseObject({ category: z.string().min(1).max(40), billable: z.boolean().optional(), pricing_model: z.string().max(40).optional() })
    .optional()
    .catch(undefined),
});

const cloudContactSchema = z.looseObject({
  profile: z.looseObject({ name: z.string().optional(), username: z.string().optional() }).optional(),
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
});
type CloudContact = z.infer<typeof cloudContactSchema>;

const cloudChangeValueSchema = z.looseObject({
  messaging_product: z.string().optional(),
  metadata: z
    .looseObject({ display_phone_number: z.string().optional(), phone_number_id: z.string().optional() })
    .optional(),
  contacts: z.array(cloudContactSchema.nullable().catch(null)).optional().catch(undefined),
  messages: z.array(cloudMessageSchema.nullable().catch(null)).optional().catch(undefined),
  statuses: z.array(cloudStatusSchema.nullable().catch(null)).optional().catch(undefined),
});

type CloudMessage = z.infer<typeof cloudMessageSchema>;
type CloudStatus = z.infer<typeof cloudStatusSchema>;

function parseTimestamp(value: string | number): Date {
  const seconds = typeof value === "number" ? value : Number(value);
  // A missing or garbled timestamp should not drop a customer's message; receipt time is close.
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
}

function toInboundMessage({
  message,
  name,
  username,
  phoneNumberId,
}: {
  message: CloudMessage;
  name?: string;
  username?: string;
  phoneNumberId?: string;
}): InboundMessage | null {
  const context = contextOf(message);
  const phone = message.from?.replace(/\D/g, "") || undefined;
  const userId = message.from_user_id && isNetworkUserId(message.from_user_id) ? message.from_user_id : undefined;
  // Neither a number nor a business-scoped user id: nobody to answer.
  if (!phone && !userId) return null;
  const base = {
    networkMessageId: message.id,
    // The number when given (then `from` is it), else the business-scoped user id.
    from: (phone ?? userId)!,
    ...(userId ? { userId } : {}),
    ...(username ? { username } : {}),
    ...(name ? { name } : {}),
    timestamp: parseTimestamp(message.timestamp),
    ...(phoneNumberId ? { phoneNumberId } : {}),
    ...(context ? { context } : {}),
  };
  if (message.type === "text") {
    return message.text ? { ...base, type: "text", text: message.text.body } : null;
  }
  if (!["image", "document", "audio", "video", "voice"].includes(message.type)) return toInboundKind(message, base);
  // Voice notes arrive as audio with voice: true, or as a separate "voice" kind on older senders.
  const mediaType: Exclude<MessageType, "text"> | null =
    message.type === "voice"
      ? "audio"
      : message.type === "image" || message.type === "document" || message.type === "audio" || message.type === "video"
        ? message.type
        : null;
  if (!mediaType) return null;
  const media = message[message.type as "image" | "document" | "audio" | "video" | "voice"];
  if (!media) return null;
  return {
    ...base,
    type: mediaType,
    media: {
      networkMediaId: media.id,
      mimeType: media.mime_type,
      ...(media.filename ? { filename: media.filename } : {}),
      ...(media.caption ? { caption: media.caption } : {}),
    },
  };
}

function toStatusUpdate({ status, phoneNumberId }: { status: CloudStatus; phoneNumberId?: string }): StatusUpdate | null {
  if (status.status !== "sent" && status.status !== "delivered" && status.status !== "read" && status.status !== "failed") {
    return null;
  }
  const update: StatusUpdate = {
    networkMessageId: status.id,
    status: status.status,
    timestamp: parseTimestamp(status.timestamp),
    ...(status.biz_opaque_callback_data ? { callbackData: status.biz_opaque_callback_data } : {}),
    ...(phoneNumberId ? { phoneNumberId } : {}),
    ...(status.pricing
      ? {
          pricing: {
            category: status.pricing.category.toLowerCase(),
            billable: status.pricing.billable ?? true,
            ...(status.pricing.pricing_model ? { pricing_model: status.pricing.pricing_model } : {}),
          },
        }
      : {}),
  };
  if (status.status === "failed") {
    const error = status.errors?.[0];
    const headline = error?.message ?? error?.title;
    const details = error?.error_data?.details;
    const message =
      headline && details && !headline.includes(details) ? `${headline}: ${details}` : (headline ?? details);
    update.error = {
      code: error?.code !== undefined ? String(error.code) : "unknown",
      message: message ?? "The network reported the message as failed.",
    };
  }
  return update;
}

/**
 * A `messages` change: the customers' messages, the statuses of the business's messages and the
 * customers' edits and deletions. Null when the change's value is not readable at all.
 */
export function parseMessagesChange(value: unknown): {
  phoneNumberId?: string;
  messages: InboundMessage[];
  statuses: StatusUpdate[];
  revisions: InboundRevision[];
} | null {
  const parsed = cloudChangeValueSchema.safeParse(value);
  if (!parsed.success) return null;
  const phoneNumberId = parsed.data.metadata?.phone_number_id;
  const messages: InboundMessage[] = [];
  const statuses: StatusUpdate[] = [];
  const revisions: InboundRevision[] = [];

  const contacts = (parsed.data.contacts ?? []).filter((contact) => contact !== null);
  const findContact = (message: CloudMessage): CloudContact | undefined =>
    contacts.find((contact) => (message.from_user_id && contact.user_id === message.from_user_id) || (message.from && contact.wa_id === message.from)) ??
    (contacts.length === 1 ? contacts[0] : undefined);

  for (const message of parsed.data.messages ?? []) {
    if (!message) continue;
    if (isRevisionType(message.type)) {
      const fromUserId = message.from_user_id || findContact(message)?.user_id || undefined;
      const revision = toRevision({ message, from: (message.from ?? "").replace(/\D/g, ""), fromUserId, timestamp: parseTimestamp(message.timestamp), phoneNumberId });
      if (revision) revisions.push(revision);
      else console.warn(`network webhook: skipped a message (malformed_${message.type}, type ${message.type})`);
      continue;
    }
    const contact = findContact(message);
    // The contact entry carries the BSUID too; the message's own field wins.
    const withUserId = message.from_user_id || !contact?.user_id ? message : { ...message, from_user_id: contact.user_id };
    const inbound = toInboundMessage({
      message: withUserId,
      name: contact?.profile?.name || undefined,
      username: contact?.profile?.username || undefined,
      phoneNumberId,
    });
    if (inbound) messages.push(inbound);
  }
  for (const status of parsed.data.statuses ?? []) {
    if (!status) continue;
    const update = toStatusUpdate({ status, phoneNumberId });
    if (update) statuses.push(update);
  }
  return { ...(phoneNumberId ? { phoneNumberId } : {}), messages, statuses, revisions };
}

/** One message object of a notification (also inside coexistence history), or null when unusable. */
export function parseCloudMessage(message: unknown, { name, phoneNumberId }: { name?: string; phoneNumberId?: string } = {}): InboundMessage | null {
  const parsed = cloudMessageSchema.safeParse(message);
  return parsed.success ? toInboundMessage({ message: parsed.data, name, phoneNumberId }) : null;
}
