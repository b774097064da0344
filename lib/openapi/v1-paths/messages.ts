import { z } from "zod";
import { mediaLimits } from "@/lib/messages/media-rules";
import { idOf, operationsFor, page, paginationQuery, pathIds, timestamp, type V1Domain } from "../v1-common";

// Written from SPEC section 4. When lib/messages/schemas.ts exists, its public schemas
// replace these so the document and the handlers share one definition.

const tag = { name: "Messages", description: "Send and read messages; media travel as Base64." };
const op = operationsFor(tag.name);

const digits = (description: string) => z.string().meta({ description, example: "15551234567" });

export const messageMediaSchema = z
  .looseObject({
    mime_type: z.string().meta({ example: "image/jpeg" }),
    filename: z.string().nullable().optional(),
    caption: z.string().nullable().optional(),
    size: z.int().min(0).optional().meta({ description: "Decoded size in bytes." }),
  })
  .meta({ id: "MessageMedia", description: "Media of a message; the bytes are at `GET /v1/messages/{id}/media`." });

export const messageSchema = z
  .strictObject({
    id: idOf("message"),
    conversation_id: idOf("conversation"),
    direction: z.enum(["inbound", "outbound"]),
    from: digits("Sender number, digits only."),
    to: digits("Recipient number, digits only."),
    type: z.enum(["text", "image", "document", "audio", "video"]),
    text: z.string().nullable().optional(),
    media: messageMediaSchema.nullable().optional(),
    status: z.enum(["queued", "sent", "delivered", "read", "failed", "received"]),
    sender: z.strictObject({
      type: z.enum(["user", "contact", "automation"]),
      user_id: idOf("user").nullable().optional(),
    }),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable().optional().meta({ description: "The network's error when `failed`." }),
    timestamp: timestamp(),
    deleted_at: timestamp().nullable().optional(),
  })
  .meta({ id: "Message" });

const recipient = {
  to: z.string().regex(/^\d{8,15}$/).meta({ description: "8 to 15 digits (E.164 without `+`).", example: "15551234567" }),
  conversation_id: idOf("conversation", "Send in this conversation; otherwise the open conversation with `to`, or a new one.").optional(),
};

const mediaInput = <M extends readonly [string, ...string[]]>(mimeTypes: M, options: { filename: boolean; caption: boolean }) =>
  z.object({
    mime_type: z.enum(mimeTypes),
    data: z.string().min(1).meta({ description: "The bytes, standard Base64. They must match `mime_type`.", contentEncoding: "base64" }),
    ...(options.filename ? { filename: z.string().min(1).max(255) } : { filename: z.string().min(1).max(255).optional() }),
    ...(options.caption ? { caption: z.string().max(1024).optional() } : {}),
  });

const MiB = 1024 * 1024;

export const sendMessageInput = z
  .discriminatedUnion("type", [
    z.object({ ...recipient, type: z.literal("text"), text: z.string().min(1).max(4096) }).meta({ title: "Text" }),
    z
      .object({ ...recipient, type: z.literal("image"), media: mediaInput(mediaLimits.image.mimeTypes, { filename: false, caption: true }) })
      .meta({ title: "Image", description: `At most ${mediaLimits.image.maxBytes / MiB} MiB.` }),
    z
      .object({ ...recipient, type: z.literal("audio"), media: mediaInput(mediaLimits.audio.mimeTypes, { filename: false, caption: false }) })
      .meta({ title: "Audio", description: `At most ${mediaLimits.audio.maxBytes / MiB} MiB; no caption.` }),
    z
      .object({ ...recipient, type: z.literal("video"), media: mediaInput(mediaLimits.video.mimeTypes, { filename: false, caption: true }) })
      .meta({ title: "Video", description: `At most ${mediaLimits.video.maxBytes / MiB} MiB.` }),
    z
      .object({ ...recipient, type: z.literal("document"), media: mediaInput(mediaLimits.document.mimeTypes, { filename: true, caption: true }) })
      .meta({ title: "Document", description: `At most ${mediaLimits.document.maxBytes / MiB} MiB; \`filename\` required.` }),
  ])
  .meta({ id: "SendMessage", description: "A text (`text`, no `media`) or a media message (`media`, no `text`)." });

export const polishInput = z.object({
  text: z.string().min(1).max(4096),
  style: z.enum(["concise", "normal", "explanatory"]),
});

export const polishOutput = z.object({
  text: z.string(),
  style: z.enum(["concise", "normal", "explanatory"]),
  engine: z.enum(["rules", "llm"]),
});

const byId = pathIds({ id: "message" });

export const messagesDomain: V1Domain = {
  tag,
  paths: {
    "/v1/conversations/{id}/messages": {
      get: op({
        operationId: "listConversationMessages",
        summary: "List a conversation's messages",
        description: "Newest first.",
        access: { scope: "messages:read" },
        path: pathIds({ id: "conversation" }),
        query: paginationQuery,
        success: { status: "200", description: "A page of messages.", schema: page(messageSchema) },
      }),
    },
    "/v1/messages": {
      post: op({
        operationId: "sendMessage",
        summary: "Send a message",
        description: "Stored as `queued` with you as its sender, then sent by the background runner: `message.sent`, later `delivered` and `read`, or `message.failed`. Each rule violation is a 400 `validation_error` naming the field.",
        access: { scope: "messages:write" },
        body: sendMessageInput,
        bodyLimit: "32 MiB",
        idempotent: true,
        success: { status: "201", description: "The queued message.", schema: messageSchema },
        errors: [404],
      }),
    },
    "/v1/messages/{id}": {
      get: op({
        operationId: "getMessage",
        summary: "Get a message",
        access: { scope: "messages:read" },
        path: byId,
        success: { status: "200", description: "The message.", schema: messageSchema },
      }),
      delete: op({
        operationId: "deleteMessage",
        summary: "Delete a message",
        description: "Soft delete: text and media are removed and `deleted_at` is set.",
        access: { scope: "messages:delete" },
        path: byId,
        success: { status: "204", description: "Deleted." },
      }),
    },
    "/v1/messages/{id}/media": {
      get: op({
        operationId: "getMessageMedia",
        summary: "Download a message's media",
        access: { scope: "messages:read" },
        path: byId,
        success: {
          status: "200",
          description: "The bytes, with their Content-Type.",
          content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } } },
        },
      }),
    },
    "/v1/messages/polish": {
      post: op({
        operationId: "polishText",
        summary: "Polish a draft",
        description: "`concise` shortens and removes filler; `normal` fixes spacing, capitals, punctuation and chat abbreviations; `explanatory` adds a courteous opening and closing with the business name. `engine` tells whether the built-in rules or the configured language model answered.",
        access: { scope: "messages:write" },
        body: polishInput,
        success: { status: "200", description: "The polished text.", schema: polishOutput },
      }),
    },
  },
};
