import { z } from "zod";
import type { BusinessProfile, DocumentRow } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { type Hours, hoursSchema, isOpenAt, nextOpeningAt, weekdays } from "./hours";
import { type Language, languages } from "@/lib/platform/language/language";

const OUTSIDE_HOURS_MESSAGE_MAX = 1000;

const autoReplySchema = z.object({
  outside_hours: z
    .object({
      enabled: z.boolean({ error: "must be true or false" }),
      // A disabled reply may keep an empty or draft message; an enabled one needs words to send.
      message: z
        .string({ error: "must be a string" })
        .trim()
        .max(OUTSIDE_HOURS_MESSAGE_MAX, `must be at most ${OUTSIDE_HOURS_MESSAGE_MAX} characters`)
        .meta({ description: `Sent with the next opening time (at most ${OUTSIDE_HOURS_MESSAGE_MAX} characters; empty for the product's default), in the business's language. \`{{business.name}}\` is replaced by the business name.`, example: "Thanks for writing! We are closed now." }),
      translations: z
        .strictObject(
          Object.fromEntries(
            languages.map((language) => [
              language,
              z
                .string({ error: "must be a string" })
                .trim()
                .max(OUTSIDE_HOURS_MESSAGE_MAX, `must be at most ${OUTSIDE_HOURS_MESSAGE_MAX} characters`)
                .optional(),
            ]),
          ) as Record<Language, z.ZodOptional<z.ZodString>>,
          {
            error: (issue) =>
              issue.code === "unrecognized_keys" ? `has an unknown language code (${issue.keys.join(", ")}); use ${languages.join(", ")}` : undefined,
          },
        )
        .optional()
        .meta({
          description: `The same message in other languages (\`en\`, \`es\`, \`pt\`; each at most ${OUTSIDE_HOURS_MESSAGE_MAX} characters). A customer writing in one of them gets the whole answer in it; otherwise the answer is in the business's language.`,
          example: { es: "¡Gracias por escribir! Ahora estamos cerrados.", pt: "Obrigado pela mensagem! Estamos fechados agora." },
        }),
    })
    .meta({
      description:
        "Answer messages that arrive outside opening hours, at most once per conversation every 12 hours. An empty message, or the product's own default in English, Spanish or Portuguese, sends the product's default in the customer's language (else the business's).",
    }),
  hours_question: z
    .object({ enabled: z.boolean({ error: "must be true or false" }) })
    .meta({ description: "Answer questions about opening hours (English, Spanish, Portuguese) with the weekly hours." }),
});
type AutoReply = z.infer<typeof autoReplySchema>;

const defaultAutoReply: AutoReply = {
  outside_hours: { enabled: false, message: "" },
  hours_question: { enabled: false },
};

/**
 * PUT /v1/config/business-profile replaces the whole profile: every field is required (send
 * `hours: null` to remove opening hours). Unknown keys, such as the read-only fields of the GET
 * answer, are ignored so a client can send back what it read.
 */
export const businessProfileInput = z
  .object({
    name: z.string({ error: "is required" }).trim().min(1, "is required").max(100, "must be at most 100 characters").meta({ description: "The business name, 1 to 100 characters.", example: "Green Corner Plants" }),
    description: z
      .string({ error: "is required (send an empty string for none)" })
      .max(5000, "must be at most 5000 characters")
      .meta({ description: "Products, coverage and policies, at most 5,000 characters; the smart features read it.", example: "Indoor plants and pots. Delivery in the city centre." }),
    language: z
      .enum(languages, { error: `must be one of ${languages.join(", ")}` })
      .optional()
      .meta({ description: "The business's own language (`en`, `es`, `pt`): automatic answers fall back to it. Unchanged when absent." }),
    hours: hoursSchema.nullable().meta({ description: "Opening hours, or null for none (both automatic answers need them)." }),
    auto_reply: autoReplySchema,
  })
  .superRefine((value, ctx) => {
    if (value.hours) return;
    // Both automatic answers are about opening hours: without hours they would have nothing to say.
    if (value.auto_reply.outside_hours.enabled) {
      ctx.addIssue({ code: "custom", path: ["auto_reply", "outside_hours", "enabled"], message: "needs opening hours (hours) to know when the business is closed" });
    }
    if (value.auto_reply.hours_question.enabled) {
      ctx.addIssue({ code: "custom", path: ["auto_reply", "hours_question", "enabled"], message: "needs opening hours (hours) to answer with" });
    }
  });
export type BusinessProfileInput = z.infer<typeof businessProfileInput>;

const intervalOutput = z.object({ open: z.string().meta({ example: "09:00" }), close: z.string().meta({ example: "18:00" }) });

export const businessProfileOutput = z
  .object({
    name: z.string(),
    description: z.string(),
    language: z.enum(languages).meta({ description: "The business's own language." }),
    hours: z
      .object({
        timezone: z.string().meta({ example: "Europe/Madrid" }),
        weekly: z
          .object(Object.fromEntries(weekdays.map((day) => [day, z.array(intervalOutput)])) as Record<(typeof weekdays)[number], z.ZodArray<typeof intervalOutput>>)
          .meta({ description: "Every weekday, closed ones as `[]`, intervals in time order." }),
      })
      .nullable(),
    auto_reply: autoReplySchema,
    /** Computed at read time from `hours`; null without hours. */
    open_now: z.boolean().nullable().meta({ description: "Whether the business is open now; null without hours." }),
    next_opening_at: isoTimestamp("The next opening time; null without hours.").nullable(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "BusinessProfile", description: "What the automatic answers and the polishing know about the business." });
export type BusinessProfileOutput = z.infer<typeof businessProfileOutput>;

/** Every day present (closed days as []), intervals in time order: one shape for every reader. */
export function normalizeHours(hours: Hours): Hours & { weekly: Record<(typeof weekdays)[number], { open: string; close: string }[]> } {
  const weekly = Object.fromEntries(
    weekdays.map((day) => [
      day,
      [...(hours.weekly[day] ?? [])].map(({ open, close }) => ({ open, close })).sort((a, b) => a.open.localeCompare(b.open)),
    ]),
  ) as Record<(typeof weekdays)[number], { open: string; close: string }[]>;
  return { timezone: hours.timezone, weekly };
}

export function presentBusinessProfile(row: Pick<BusinessProfile, "name" | "description" | "language" | "hours" | "autoReply" | "updatedAt">, now = new Date()): BusinessProfileOutput {
  const hours = row.hours ? normalizeHours(row.hours) : null;
  const next = hours ? nextOpeningAt({ hours, at: now }) : null;
  return businessProfileOutput.parse({
    name: row.name,
    description: row.description,
    language: row.language,
    hours,
    auto_reply: row.autoReply ?? defaultAutoReply,
    open_now: hours ? isOpenAt({ hours, at: now }) : null,
    next_opening_at: next ? next.toISOString() : null,
    updated_at: row.updatedAt.toISOString(),
  });
}

// ---------------------------------------------------------------------------------------------
// Documents

export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENTS_PER_ACCOUNT = 20;

export const uploadDocumentInput = z.object({
  filename: z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required")
    .max(255, "must be at most 255 characters")
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "must not contain control characters")
    .meta({ description: "The file name, 1 to 255 characters.", example: "price-list.pdf" }),
  // Standard Base64 (line breaks allowed), or a data: URL as a browser's FileReader produces it.
  data: z
    .string({ error: "is required (the file as Base64)" })
    .min(1, "is required (the file as Base64)")
    .meta({ description: "The PDF as standard Base64 (or a `data:application/pdf;base64,` URL), at most 10 MiB decoded.", contentEncoding: "base64" }),
});
export type UploadDocumentInput = z.infer<typeof uploadDocumentInput>;

const documentShape = {
  id: prefixedId("document"),
  filename: z.string().meta({ example: "price-list.pdf" }),
  size: z.int().min(0).meta({ description: "Bytes." }),
  pages: z.int().min(0),
  /** Characters of text extracted; 0 for a scanned PDF without a text layer. */
  text_length: z.int().min(0).meta({ description: "Characters of text extracted; 0 for a scanned PDF without a text layer." }),
  created_at: isoTimestamp(),
};

export const documentOutput = z.object(documentShape).meta({ id: "Document", description: "A PDF whose text the smart features read." });
export type DocumentOutput = z.infer<typeof documentOutput>;

export const documentWithTextOutput = z
  .object({ ...documentShape, text: z.string().meta({ description: "The extracted text." }) })
  .meta({ id: "DocumentWithText", description: "A document and the text extracted from it." });

export function presentDocument(row: Pick<DocumentRow, "id" | "filename" | "size" | "pages" | "createdAt"> & { textLength: number }): DocumentOutput {
  return documentOutput.parse({
    id: row.id,
    filename: row.filename,
    size: row.size,
    pages: row.pages,
    text_length: row.textLength,
    created_at: row.createdAt.toISOString(),
  });
}

// ---------------------------------------------------------------------------------------------
// Suggested answers from the business's own knowledge

/** POST /v1/conversations/{id}/suggestions takes an empty object: the conversation says it all. */
export const suggestionsInput = z.object({}).meta({ description: "Send `{}`." });

const suggestionOutput = z
  .object({
    id: prefixedId("passage", "The passage, to mark it not helpful (`POST /v1/conversations/{id}/suggestions/dismissals`)."),
    text: z.string().meta({ description: "A passage of the profile description or of a document, at most about 300 characters cut at paragraph and sentence ends, to insert into a reply.", example: "We ship to the whole country: 3 to 5 working days, free over $50." }),
    source: z
      .object({
        type: z.enum(["description", "document"]).meta({ description: "`description` (the business profile) or `document` (an uploaded PDF)." }),
        document_id: prefixedId("document", "The document, for `document`.").optional(),
        filename: z.string().optional().meta({ description: "The document's file name, for `document`.", example: "envios.pdf" }),
        page: z.int().min(1).optional().meta({ description: "The page of the document, when known." }),
      })
      .meta({ description: "Where the passage comes from." }),
    score: z.number().min(0).meta({ description: "Full-text rank (higher is better); only comparable within one answer.", example: 0.4821 }),
  })
  .meta({ id: "Suggestion" });

export const suggestionsOutput = z
  .object({
    data: z.array(suggestionOutput).meta({ description: "Best first, at most 3; empty when the customer has written no text or nothing matches." }),
    language: z.enum(languages).optional().meta({ description: "The language the customer's last message was searched in." }),
    window_open: z
      .boolean()
      .optional()
      .meta({ description: "False when the customer's 24-hour window is closed: nothing is suggested then, since only a template can be sent. Absent when the customer has written no text." }),
    draft: z
      .boolean()
      .optional()
      .meta({ description: "True when an answer assistant is configured: `POST /v1/conversations/{id}/draft` can write a reply from these passages." }),
  })
  .meta({ id: "SuggestionList" });

/** POST /v1/conversations/{id}/suggestions/dismissals: an agent's "not helpful". */
export const dismissSuggestionInput = z
  .strictObject({
    suggestion_id: z
      .string({ error: "is required (a suggestion id)" })
      .regex(/^psg_[0-9a-z]{1,64}$/, "must be a suggestion's id (psg_…)")
      .meta({ description: "The suggestion's `id`.", example: "psg_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  })
  .meta({ id: "DismissSuggestionInput", description: "The suggestion is no longer offered in this conversation (the choice is kept for the passage's text)." });
export type SuggestionsOutput = z.infer<typeof suggestionsOutput>;
