import { z } from "zod";
import type { Media, Message } from "@/db/schema";
import { isoTimestamp, phoneDigits as phoneField, prefixedId } from "@/lib/api/fields";
import { maxCaptionLength, MiB, mediaLimits } from "./media-limits";
import { decodeBase64Strict, type MediaType, normalizeMimeType, validateMedia } from "./media-rules";

export const messageTypes = ["text", "image", "document", "audio", "video"] as const;
export type MessageType = (typeof messageTypes)[number];

export const MAX_TEXT_LENGTH = 4096;

// Counted in Unicode code points, as a person counts characters (an emoji is one).
const characters = (text: string) => Array.from(text).length;

const allowedMedia = (Object.entries(mediaLimits) as [MediaType, (typeof mediaLimits)[MediaType]][])
  .map(([type, limit]) => `${type}: ${limit.mimeTypes.join(", ")} (at most ${limit.maxBytes / MiB} MiB)`)
  .join("; ");

const mediaInput = z
  .object({
    mime_type: z
      .string({ error: "is required (a string)" })
      .min(1, "is required")
      .meta({ description: `The file's type, allowed per message type: ${allowedMedia}.`, example: "image/jpeg" }),
    data: z
      .string({ error: "is required (Base64 of the file)" })
      .meta({ description: "The file, standard Base64. Its first bytes must match `mime_type` where the format has a signature.", contentEncoding: "base64" }),
    filename: z.string({ error: "must be a string" }).optional().meta({ description: "Required for documents.", example: "menu.pdf" }),
    caption: z.string({ error: "must be a string" }).optional().meta({ description: `At most ${maxCaptionLength} characters; not for audio.` }),
  })
  .meta({ description: "The file of a media message." });

export type DecodedMedia = { mimeType: string; bytes: Buffer; filename?: string; caption?: string };

const phoneDigits = (field: string) =>
  z
    .string({ error: `is required: ${field === "to" ? "the recipient's" : "the sender's"} number, 8 to 15 digits` })
    .regex(/^\d{8,15}$/, "must be 8 to 15 digits only (E.164 without +, no spaces)")
    .meta({ description: `${field === "to" ? "The recipient's" : "The customer's"} number: 8 to 15 digits (E.164 without \`+\`).`, example: "15551234567" });

const contentShape = {
  type: z.enum(messageTypes, { error: `is required: one of ${messageTypes.join(", ")}` }),
  text: z
    .string({ error: "must be a string" })
    .optional()
    .meta({ description: `Required for \`text\` messages (1 to ${MAX_TEXT_LENGTH} characters); not allowed for the others.`, example: "Your order is on its way." }),
  media: mediaInput.optional().meta({ description: "Required for image, document, audio and video messages; not allowed for text." }),
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
      .optional()
      .meta({ description: "Send in this conversation; otherwise the open conversation with `to`, or a new one." }),
  })
  .superRefine(checkContent)
  .transform(decodeContent)
  .meta({
    id: "SendMessage",
    description: "A text message (`text`, no `media`) or a media message (`media`, no `text`). Each rule violation is a 400 `validation_error` naming the field.",
    example: { to: "15551234567", type: "text", text: "Your order is on its way." },
  });
export type SendMessageInput = z.output<typeof sendMessageInput>;

const interactiveReplyInput = z.object({
  type: z.literal("list_reply", { error: 'must be "list_reply"' }),
  id: z.string({ error: "is required (the chosen row's id)" }).min(1, "must not be empty").max(200, "must be at most 200 characters"),
  title: z.string({ error: "is required (the chosen row's title)" }).trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
});

// The simulated customer may also pick a row of an interactive list (`type: "interactive"`),
// as the network reports it; it is kept as a text message with the row's title.
export const sandboxInboundInput = z
  .object({
    from: phoneDigits("from"),
    name: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
    ...contentShape,
    type: z.enum([...messageTypes, "interactive"], { error: `is required: one of ${messageTypes.join(", ")}, interactive` }),
    interactive: interactiveReplyInput.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.type !== "interactive") {
      if (value.interactive !== undefined) ctx.addIssue({ code: "custom", path: ["interactive"], message: `is not allowed for ${value.type} messages` });
      return checkContent({ ...value, type: value.type }, ctx);
    }
    if (value.interactive === undefined) ctx.addIssue({ code: "custom", path: ["interactive"], message: "is required for interactive messages" });
    if (value.text !== undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "is not allowed for interactive messages" });
    if (value.media !== undefined) ctx.addIssue({ code: "custom", path: ["media"], message: "is not allowed for interactive messages" });
  })
  .transform(({ interactive, type, ...rest }) =>
    type === "interactive" && interactive
      ? { from: rest.from, name: rest.name, type: "text" as const, text: interactive.title, interactive }
      : decodeContent({ ...rest, type: type as MessageType }),
  );
export type SandboxInboundInput = z.output<typeof sandboxInboundInput>;

export type MediaMeta = Pick<Media, "id" | "mimeType" | "filename" | "caption" | "size" | "sha256">;
export type MessageWithMedia = Message & { media: MediaMeta | null };

export const messageMediaOutput = z
  .strictObject({
    id: prefixedId("media"),
    mime_type: z.string().meta({ example: "image/jpeg" }),
    size: z.int().min(0).meta({ description: "Bytes." }),
    sha256: z.string().meta({ description: "Lowercase hex SHA-256 of the bytes." }),
    filename: z.string().optional(),
    caption: z.string().optional(),
    url: z.string().meta({ description: "Where to download the bytes (`GET /v1/messages/{id}/media`).", example: "/v1/messages/msg_01jd2x8k3f0m6q1v9w4r7t5y2z/media" }),
  })
  .meta({ id: "MessageMedia", description: "The file of a media message; absent once the message is deleted." });

// Strict: the same component serves answers and the webhook bodies that carry a message.
export const messageOutput = z
  .strictObject({
    id: prefixedId("message"),
    conversation_id: prefixedId("conversation"),
    direction: z.enum(["inbound", "outbound"]).meta({ example: "outbound" }),
    from: phoneField("The sender's number, digits only."),
    to: phoneField("The recipient's number, digits only."),
    type: z.enum(messageTypes),
    text: z.string().optional().meta({ description: "The text of a text message; absent for media and once deleted." }),
    media: messageMediaOutput.optional(),
    status: z.enum(["queued", "sent", "delivered", "read", "failed", "received"]).meta({
      description: "Outbound: `queued` → `sent` → `delivered` → `read`, or `failed`. Inbound: `received`.",
    }),
    sender: z
      .strictObject({
        type: z.enum(["user", "contact", "automation"]).meta({ description: "`user` (an agent or the API), `contact` (the customer) or `automation` (an automatic answer)." }),
        user_id: prefixedId("user", "The user who sent it (type `user`).").optional(),
      })
      .meta({ description: "Who wrote the message." }),
    error: z
      .strictObject({ code: z.string(), message: z.string() })
      .optional()
      .meta({ description: "The network's error, when `failed`." }),
    timestamp: isoTimestamp("When the message was stored."),
    deleted_at: isoTimestamp("When it was deleted; its text and media are gone.").optional(),
  })
  .meta({ id: "Message", description: "A message of a conversation." });
export type MessageOutput = z.infer<typeof messageOutput>;

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
