import { z } from "zod";
import type { Media, Message } from "@/db/schema";
import { decodeBase64Strict, type MediaType, normalizeMimeType, validateMedia } from "./media-rules";

export const messageTypes = ["text", "image", "document", "audio", "video"] as const;
export type MessageType = (typeof messageTypes)[number];

export const MAX_TEXT_LENGTH = 4096;

// Counted in Unicode code points, as a person counts characters (an emoji is one).
const characters = (text: string) => Array.from(text).length;

const mediaInput = z.object({
  mime_type: z.string({ error: "is required (a string)" }).min(1, "is required"),
  data: z.string({ error: "is required (Base64 of the file)" }),
  filename: z.string({ error: "must be a string" }).optional(),
  caption: z.string({ error: "must be a string" }).optional(),
});

export type DecodedMedia = { mimeType: string; bytes: Buffer; filename?: string; caption?: string };

const phoneDigits = (field: string) =>
  z
    .string({ error: `is required: ${field === "to" ? "the recipient's" : "the sender's"} number, 8 to 15 digits` })
    .regex(/^\d{8,15}$/, "must be 8 to 15 digits only (E.164 without +, no spaces)");

const contentShape = {
  type: z.enum(messageTypes, { error: `is required: one of ${messageTypes.join(", ")}` }),
  text: z.string({ error: "must be a string" }).optional(),
  media: mediaInput.optional(),
};
type Content = { type: MessageType; text?: string; media?: z.infer<typeof mediaInput> };

/**
 * The content rules shared by POST /v1/messages and the sandbox's simulated customer: text
 * or media (never both) as the type requires, and every media rule of validateMedia. All
 * violations are reported at once, each naming its field.
 */
function checkContent({ type, text, media }: Content, ctx: z.RefinementCtx) {
  if (type === "text") {
    if (text === undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "is required for text messages" });
    else if (text.trim() === "") ctx.addIssue({ code: "custom", path: ["text"], message: "must not be empty" });
    else if (characters(text) > MAX_TEXT_LENGTH) {
      ctx.addIssue({ code: "custom", path: ["text"], message: `must be at most ${MAX_TEXT_LENGTH} characters` });
    }
    if (media !== undefined) ctx.addIssue({ code: "custom", path: ["media"], message: "is not allowed for text messages" });
    return;
  }
  if (text !== undefined) {
    ctx.addIssue({ code: "custom", path: ["text"], message: `is not allowed for ${type} messages; put the words in media.caption` });
  }
  if (media === undefined) {
    ctx.addIssue({ code: "custom", path: ["media"], message: `is required for ${type} messages` });
    return;
  }
  const result = validateMedia({ type, media });
  if (!result.ok) {
    for (const issue of result.issues) ctx.addIssue({ code: "custom", path: issue.path.split("."), message: issue.message });
  }
}

/** Runs only on a valid body (a transform after failed checks is skipped), so the media decodes. */
function decodeContent<T extends Content>(value: T): Omit<T, "media"> & { media?: DecodedMedia } {
  const { media, ...rest } = value;
  if (!media) return rest;
  return {
    ...rest,
    media: {
      mimeType: normalizeMimeType(media.mime_type),
      bytes: decodeBase64Strict(media.data)!,
      ...(media.filename !== undefined ? { filename: media.filename } : {}),
      ...(media.caption !== undefined ? { caption: media.caption } : {}),
    },
  };
}

export const sendMessageInput = z
  .object({
    to: phoneDigits("to"),
    ...contentShape,
    conversation_id: z
      .string({ error: "must be a conversation id (conv_...)" })
      .regex(/^conv_[0-9a-z]{26}$/, "must be a conversation id (conv_...)")
      .optional(),
  })
  .superRefine(checkContent)
  .transform(decodeContent);
export type SendMessageInput = z.output<typeof sendMessageInput>;

export const sandboxInboundInput = z
  .object({
    from: phoneDigits("from"),
    name: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
    ...contentShape,
  })
  .superRefine(checkContent)
  .transform(decodeContent);
export type SandboxInboundInput = z.output<typeof sandboxInboundInput>;

export type MediaMeta = Pick<Media, "id" | "mimeType" | "filename" | "caption" | "size" | "sha256">;
export type MessageWithMedia = Message & { media: MediaMeta | null };

export type MessageOutput = {
  id: string;
  conversation_id: string;
  direction: "inbound" | "outbound";
  from: string;
  to: string;
  type: MessageType;
  text?: string;
  media?: { id: string; mime_type: string; size: number; sha256: string; filename?: string; caption?: string; url: string };
  status: Message["status"];
  sender: { type: "user" | "contact" | "automation"; user_id?: string };
  error?: { code: string; message: string };
  timestamp: string;
  deleted_at?: string;
};

export function presentMessage(row: MessageWithMedia): MessageOutput {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    direction: row.direction,
    from: row.fromNumber,
    to: row.toNumber,
    type: row.type,
    ...(row.text !== null ? { text: row.text } : {}),
    ...(row.media
      ? {
          media: {
            id: row.media.id,
            mime_type: row.media.mimeType,
            size: row.media.size,
            sha256: row.media.sha256,
            ...(row.media.filename !== null ? { filename: row.media.filename } : {}),
            ...(row.media.caption !== null ? { caption: row.media.caption } : {}),
            url: `/v1/messages/${row.id}/media`,
          },
        }
      : {}),
    status: row.status,
    sender: { type: row.senderType, ...(row.senderUserId ? { user_id: row.senderUserId } : {}) },
    ...(row.error ? { error: row.error } : {}),
    timestamp: row.createdAt.toISOString(),
    ...(row.deletedAt ? { deleted_at: row.deletedAt.toISOString() } : {}),
  };
}

const PREVIEW_LENGTH = 120;

/** The line an inbox row shows for a conversation's latest message. */
export function previewOf({ type, text, caption }: { type: MessageType; text?: string | null; caption?: string | null }): string {
  const label: Record<Exclude<MessageType, "text">, string> = { image: "Photo", document: "Document", audio: "Audio", video: "Video" };
  const body = type === "text" ? (text ?? "") : caption ? `${label[type as MediaType]}: ${caption}` : label[type as MediaType];
  const chars = Array.from(body.replace(/\s+/g, " ").trim());
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH - 1).join("")}…` : chars.join("");
}
