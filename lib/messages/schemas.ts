import { z } from "zod";
import { languages } from "@/lib/platform/language/language";
import { type Media, type Message, messageKinds } from "@/db/schema";
import { isoTimestamp, NETWORK_USER_ID_PATTERN, phoneDigits as phoneField, prefixedId } from "@/lib/platform/fields";
import {
  buttonReply,
  contactCard,
  contextInput,
  describeKind,
  flowResponseContent,
  interactiveOutput,
  interactiveSendInput,
  interactiveReply,
  locationContent,
  messageReaction,
  type MessageKindContent,
  messageRef,
  reactionContent,
  templateContent,
  templateSendInput,
  unsupportedContent,
} from "./kinds";
import { messageTypes, type MessageType } from "@/lib/network/types";
import { maxCaptionLength, MiB, mediaLimits } from "./media-limits";
import { decodeBase64Strict, type MediaType, normalizeMimeType, stickerSizeIssue, validateMedia } from "./media-rules";

export type MessageKind = (typeof messageKinds)[number];
/** What POST /v1/messages sends. */
const sendMessageTypes = [...messageTypes, "location", "reaction", "interactive", "template"] as const;
/** What the sandbox's simulated customer sends: every inbound kind. */
const simulatedMessageTypes = [...messageTypes, "sticker", "location", "contacts", "reaction", "interactive", "button", "unsupported"] as const;

const MAX_TEXT_LENGTH = 4096;

// Counted in Unicode code points, as a person counts characters (an emoji is one).
const characters = (text: string) => Array.from(text).length;

const allowedMedia = (Object.entries(mediaLimits) as [MediaType, (typeof mediaLimits)[MediaType]][])
  .map(([type, limit]) => `${type}: ${limit.mimeTypes.join(", ")} (at most ${limit.maxBytes / MiB} MB)`)
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

const textField = z
  .string({ error: "must be a string" })
  .optional()
  .meta({ description: `Required for \`text\` messages (1 to ${MAX_TEXT_LENGTH} characters); not allowed for the others.`, example: "Your order is on its way." });
const mediaField = mediaInput.optional().meta({ description: "Required for image, document, audio and video messages; not allowed for the others." });

/** The field each kind carries its content in (media kinds: `media`). */
const fieldOfKind: Record<string, string> = {
  text: "text",
  image: "media",
  document: "media",
  audio: "media",
  video: "media",
  sticker: "media",
  location: "location",
  contacts: "contacts",
  reaction: "reaction",
  interactive: "interactive",
  button: "button",
  template: "template",
  unsupported: "unsupported",
};
const contentFields = ["text", "media", "location", "contacts", "reaction", "interactive", "button", "template", "unsupported"] as const;

type Content = { type: string; text?: string; media?: z.infer<typeof mediaInput> } & Record<string, unknown>;

/** The zod issue of a file over the network's limit: the API answers it 413 `media_too_large`. */
const tooLargeParams = { code: "media_too_large" } as const;

// A sticker is a WebP image (RIFF....WEBP) of at most 100 KB, or 500 KB when animated.
function checkSticker(media: z.infer<typeof mediaInput>, ctx: z.RefinementCtx) {
  if (normalizeMimeType(media.mime_type) !== "image/webp") {
    ctx.addIssue({ code: "custom", path: ["media", "mime_type"], message: "must be image/webp for a sticker" });
    return;
  }
  const bytes = decodeBase64Strict(media.data);
  if (!bytes) ctx.addIssue({ code: "custom", path: ["media", "data"], message: "must be standard Base64" });
  else if (bytes.subarray(0, 4).toString("latin1") !== "RIFF" || bytes.subarray(8, 12).toString("latin1") !== "WEBP") {
    ctx.addIssue({ code: "custom", path: ["media", "data"], message: "is not a WebP image" });
  } else {
    const issue = stickerSizeIssue(bytes);
    if (issue) ctx.addIssue({ code: "custom", path: ["media", "data"], message: issue.message, params: tooLargeParams });
  }
}

/**
 * The content rules shared by POST /v1/messages and the sandbox's simulated customer: each
 * kind needs its own field (text, media, location…) and allows no other, and every media
 * rule of validateMedia holds. All violations are reported at once, each naming its field.
 */
function checkContent(value: Content, ctx: z.RefinementCtx) {
  const { type, text, media } = value;
  const own = fieldOfKind[type];
  for (const field of contentFields) {
    if (field !== own && value[field] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: type === "text" || field !== "text" ? `is not allowed for ${type} messages` : `is not allowed for ${type} messages; put the words in media.caption`,
      });
    }
  }
  if (type === "reaction" && value.context !== undefined) {
    ctx.addIssue({ code: "custom", path: ["context"], message: "is not allowed for reaction messages" });
  }
  if (type === "text") {
    if (text === undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "is required for text messages" });
    else if (text.trim() === "") ctx.addIssue({ code: "custom", path: ["text"], message: "must not be empty" });
    else if (characters(text) > MAX_TEXT_LENGTH) {
      ctx.addIssue({ code: "custom", path: ["text"], message: `must be at most ${MAX_TEXT_LENGTH} characters` });
    }
    return;
  }
  if (own !== "media") {
    if (value[own] === undefined) ctx.addIssue({ code: "custom", path: [own], message: `is required for ${type} messages` });
    return;
  }
  if (media === undefined) {
    ctx.addIssue({ code: "custom", path: ["media"], message: `is required for ${type} messages` });
    return;
  }
  if (type === "sticker") return checkSticker(media, ctx);
  const result = validateMedia({ type: type as MediaType, media });
  if (!result.ok) {
    for (const issue of result.issues) {
      ctx.addIssue({ code: "custom", path: issue.path.split("."), message: issue.message, ...(issue.tooLarge ? { params: tooLargeParams } : {}) });
    }
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

/** A send names its recipient exactly one way: a number, a business-scoped user id, or a conversation. */
const recipientFields = ["to", "to_user_id", "conversation_id"] as const;
function checkRecipient(value: Partial<Record<(typeof recipientFields)[number], unknown>>, ctx: z.RefinementCtx) {
  const given = recipientFields.filter((field) => value[field] !== undefined);
  if (given.length === 1) return;
  if (given.length === 0) {
    ctx.addIssue({ code: "custom", path: ["to"], message: "is required: give exactly one of to (a number), to_user_id (a business-scoped user id) or conversation_id" });
    return;
  }
  for (const field of given.slice(1)) {
    ctx.addIssue({ code: "custom", path: [field], message: `give exactly one of to, to_user_id or conversation_id, not ${given.join(" and ")}` });
  }
}

export const sendMessageInput = z
  .object({
    to: phoneDigits("to")
      .optional()
      .meta({ description: "The recipient's number: 8 to 15 digits (E.164 without `+`). Exactly one of `to`, `to_user_id` and `conversation_id`.", example: "15551234567" }),
    to_user_id: z
      .string({ error: "must be a business-scoped user id (CC.…)" })
      .regex(NETWORK_USER_ID_PATTERN, "must be a business-scoped user id: a two-letter country code, a period, then up to 128 letters and digits (CC.ENT.… for a parent id)")
      .optional()
      .meta({
        description: "The recipient's business-scoped user id (BSUID), for a customer known without a phone number. Exactly one of `to`, `to_user_id` and `conversation_id`.",
        example: "US.13491208655302741918",
      }),
    type: z.enum(sendMessageTypes, { error: `is required: one of ${sendMessageTypes.join(", ")}` }),
    text: textField,
    media: mediaField,
    location: locationContent.optional().meta({ description: "Required for `location` messages." }),
    reaction: reactionContent.optional().meta({ description: "Required for `reaction` messages: the message (of this conversation) and the emoji; `\"\"` removes your reaction." }),
    interactive: interactiveSendInput
      .optional()
      .meta({ description: "Required for `interactive` messages: a text with 1 to 3 reply buttons (`type: \"button\"`), or a published WhatsApp Flow (`type: \"flow\"`)." }),
    template: templateSendInput.optional().meta({ description: "Required for `template` messages: an APPROVED template and its variables. The only kind allowed outside the customer-service window." }),
    context: contextInput.optional().meta({ description: "Reply to a message of the conversation (the customer sees it quoted)." }),
    conversation_id: z
      .string({ error: "must be a conversation id (conv_...)" })
      .regex(/^conv_[0-9a-z]{26}$/, "must be a conversation id (conv_...)")
      .optional()
      .meta({ description: "Send in this conversation, to its customer (their number when known, else their business-scoped user id). Exactly one of `to`, `to_user_id` and `conversation_id`: with `to` or `to_user_id`, the customer's open conversation is used, or a new one." }),
  })
  .superRefine(checkRecipient)
  .superRefine(checkContent)
  .transform(decodeContent)
  .meta({
    id: "SendMessage",
    description:
      "A text message (`text`), a media message (`media`), a `location`, a `reaction`, reply buttons (`interactive`) or a `template`: each kind needs its own field and allows no other. The recipient is exactly one of `to`, `to_user_id` and `conversation_id`. Each rule violation is a 400 `validation_error` naming the field.",
    example: { to: "15551234567", type: "text", text: "Your order is on its way." },
    // Exactly one recipient field, as the documents' readers and generated clients see it.
    oneOf: recipientFields.map((field) => ({ type: "object", required: [field], properties: { [field]: { type: "string" } } })),
  });
export type SendMessageInput = z.output<typeof sendMessageInput>;


// The simulated customer may also pick a row of an interactive list (`type: "interactive"`),
// as the network reports it; it is kept as a text message with the row's title.
export const sandboxInboundInput = z
  .object({
    // A customer who adopted a username may write without a number: then `username` (and, if
    // wanted, the business-scoped user id the network would give them) instead of `from`.
    from: phoneDigits("from").optional(),
    from_user_id: z
      .string({ error: "must be a business-scoped user id (CC.…)" })
      .regex(NETWORK_USER_ID_PATTERN, "must be a business-scoped user id: a two-letter country code, a period, then up to 128 letters and digits")
      .optional(),
    username: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(35, "must be at most 35 characters").optional(),
    name: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(100, "must be at most 100 characters").optional(),
    type: z.enum(simulatedMessageTypes, { error: `is required: one of ${simulatedMessageTypes.join(", ")}` }),
    text: textField,
    media: mediaField,
    location: locationContent.optional(),
    contacts: z.array(contactCard).min(1, "needs at least one contact").max(20).optional(),
    // The customer reacts to a message by its id (msg_...) in the sandbox.
    reaction: reactionContent.optional(),
    interactive: interactiveReply.optional(),
    button: buttonReply.optional(),
    unsupported: unsupportedContent.optional(),
    context: contextInput.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.from === undefined && value.from_user_id === undefined && value.username === undefined) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "is required: the sender's number, 8 to 15 digits (or a username for a customer without one)" });
    }
  })
  .superRefine(checkContent)
  .transform(decodeContent);
export type SandboxInboundInput = z.output<typeof sandboxInboundInput>;

type MediaMeta = Pick<Media, "id" | "mimeType" | "filename" | "caption" | "size" | "sha256">;
export type MessageWithMedia = Message & { media: MediaMeta | null };

const messageMediaOutput = z
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

const messageRevisionOutput = z
  .strictObject({
    text: z.string().optional().meta({ description: "The text it had." }),
    caption: z.string().optional().meta({ description: "The caption its file had." }),
    until: isoTimestamp("When the customer changed it."),
    change: z.enum(["edited", "deleted"]).meta({ description: "What the customer did then." }),
  })
  .meta({ id: "MessageRevision", description: "One earlier version of a message, kept when the customer edited or deleted it." });

// Strict: the same component serves answers and the webhook bodies that carry a message.
export const messageOutput = z
  .strictObject({
    id: prefixedId("message"),
    conversation_id: prefixedId("conversation"),
    direction: z.enum(["inbound", "outbound"]).meta({ example: "outbound" }),
    from: phoneField("The sender's number, digits only; for a customer known only by their business-scoped user id, that id."),
    to: phoneField("The recipient's number, digits only; for a customer known only by their business-scoped user id, that id."),
    type: z.enum(messageKinds).meta({
      description:
        "`text`, `image`, `document`, `audio`, `video`, `sticker` (a WebP image in `media`), `location`, `contacts`, `reaction`, `interactive`, `button` (a template's quick-reply tap), `template` or `unsupported` (a kind Chorus cannot show; see `unsupported.network_type`).",
    }),
    text: z.string().optional().meta({ description: "The text of a text message, or the rendered body of a template; absent for other kinds and once deleted." }),
    media: messageMediaOutput.optional(),
    language: z
      .enum(languages)
      .nullable()
      .optional()
      .meta({ description: "Inbound only: the customer's language detected from the text or caption (`en`, `es`, `pt`), null when unsure." }),
    location: locationContent.optional().meta({ description: "A `location` message's place." }),
    contacts: z.array(contactCard).optional().meta({ description: "A `contacts` message's cards." }),
    reaction: z
      .object({ message_id: messageRef("The message reacted to."), emoji: z.string().meta({ description: "Empty when the reaction was removed." }) })
      .optional()
      .meta({ description: "A `reaction` message: what it reacted to. The reaction itself shows on that message's `reactions`." }),
    interactive: interactiveOutput.optional(),
    flow_response: flowResponseContent.optional().meta({ description: "An inbound `interactive` message answering a WhatsApp Flow: the flow's answers." }),
    button: buttonReply.optional(),
    template: templateContent.optional(),
    unsupported: unsupportedContent.optional(),
    reactions: z.array(messageReaction).optional().meta({ description: "Reactions to this message, one per person (absent when none)." }),
    context: z
      .strictObject({ message_id: messageRef("The message quoted.") })
      .optional()
      .meta({ description: "The message this one replies to, shown as a quote." }),
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
    pricing: z
      .strictObject({
        category: z.string().meta({ description: "The network's pricing category: `marketing`, `utility`, `authentication`, `service`…", example: "marketing" }),
        billable: z.boolean().meta({ description: "Whether the network charges for it." }),
        pricing_model: z.string().optional().meta({ description: "The network's pricing model, e.g. `PMP` (per message).", example: "PMP" }),
        country_code: z.string().optional().meta({ description: "The recipient's country calling code it is priced for.", example: "34" }),
      })
      .optional()
      .meta({ description: "Outbound: what the network reported it charges for this message (from its statuses); absent until then." }),
    timestamp: isoTimestamp("When the message was stored."),
    deleted_at: isoTimestamp("When it was deleted; its text and media are gone.").optional(),
    edited_at: isoTimestamp("When the customer last edited it (the text, or a media message's caption).").optional(),
    history: z
      .array(messageRevisionOutput)
      .optional()
      .meta({
        description:
          "Admins only, and only from `GET /v1/messages/{id}`: the earlier versions of a message the customer edited or deleted, oldest first. Absent for agents, in lists and in events.",
      }),
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
    ...(row.content && !row.deletedAt ? (row.content as MessageKindContent) : {}),
    ...(row.reactions && row.reactions.length > 0 ? { reactions: row.reactions } : {}),
    ...(row.contextMessageId ? { context: { message_id: row.contextMessageId } } : {}),
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
    ...(row.direction === "inbound" ? { language: row.language ?? null } : {}),
    ...(row.pricing ? { pricing: row.pricing } : {}),
    status: row.status,
    sender: { type: row.senderType, ...(row.senderUserId ? { user_id: row.senderUserId } : {}) },
    ...(row.error ? { error: row.error } : {}),
    timestamp: row.createdAt.toISOString(),
    ...(row.deletedAt ? { deleted_at: row.deletedAt.toISOString() } : {}),
    ...(row.editedAt ? { edited_at: row.editedAt.toISOString() } : {}),
  };
}

/** A message with its earlier versions, for an admin: the customer's edits and deletions. */
export function presentMessageWithHistory(row: MessageWithMedia): MessageOutput {
  return {
    ...presentMessage(row),
    ...(row.history && row.history.length > 0
      ? { history: row.history.map(({ text, caption, until, change }) => ({ ...(text !== undefined ? { text } : {}), ...(caption !== undefined ? { caption } : {}), until, change })) }
      : {}),
  };
}

const PREVIEW_LENGTH = 120;

/** The line an inbox row shows for a conversation's latest message. */
export function previewOf({ type, text, caption, content }: { type: MessageKind; text?: string | null; caption?: string | null; content?: MessageKindContent | null }): string {
  const label: Record<Exclude<MessageType, "text">, string> = { image: "Photo", document: "Document", audio: "Audio", video: "Video" };
  const kind = describeKind({ type, content, text });
  const body =
    kind !== null ? kind : type === "text" ? (text ?? "") : caption ? `${label[type as MediaType]}: ${caption}` : label[type as MediaType];
  const chars = Array.from(body.replace(/\s+/g, " ").trim());
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH - 1).join("")}…` : chars.join("");
}
