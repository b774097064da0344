import { z } from "zod";
import type { BusinessProfile, DocumentRow } from "@/db/schema";
import { type Hours, hoursSchema, isOpenAt, nextOpeningAt, weekdays } from "./hours";
import { polishStyles } from "./polish-rules";

export const OUTSIDE_HOURS_MESSAGE_MAX = 1000;

export const autoReplySchema = z.object({
  outside_hours: z
    .object({
      enabled: z.boolean({ error: "must be true or false" }),
      // A disabled reply may keep an empty or draft message; an enabled one needs words to send.
      message: z.string({ error: "must be a string" }).trim().max(OUTSIDE_HOURS_MESSAGE_MAX, `must be at most ${OUTSIDE_HOURS_MESSAGE_MAX} characters`),
    })
    .superRefine((value, ctx) => {
      if (value.enabled && value.message.length === 0) {
        ctx.addIssue({ code: "custom", path: ["message"], message: "is required when the outside-hours reply is enabled" });
      }
    }),
  hours_question: z.object({ enabled: z.boolean({ error: "must be true or false" }) }),
});
export type AutoReply = z.infer<typeof autoReplySchema>;

export const defaultAutoReply: AutoReply = {
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
    name: z.string({ error: "is required" }).trim().min(1, "is required").max(100, "must be at most 100 characters"),
    description: z.string({ error: "is required (send an empty string for none)" }).max(5000, "must be at most 5000 characters"),
    hours: hoursSchema.nullable(),
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

const intervalOutput = z.object({ open: z.string(), close: z.string() });

export const businessProfileOutput = z.object({
  name: z.string(),
  description: z.string(),
  hours: z
    .object({
      timezone: z.string(),
      weekly: z.object(Object.fromEntries(weekdays.map((day) => [day, z.array(intervalOutput)])) as Record<(typeof weekdays)[number], z.ZodArray<typeof intervalOutput>>),
    })
    .nullable(),
  auto_reply: autoReplySchema,
  /** Computed at read time from `hours`; null without hours. */
  open_now: z.boolean().nullable(),
  next_opening_at: z.string().nullable(),
  updated_at: z.string(),
});
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

export function presentBusinessProfile(row: Pick<BusinessProfile, "name" | "description" | "hours" | "autoReply" | "updatedAt">, now = new Date()): BusinessProfileOutput {
  const hours = row.hours ? normalizeHours(row.hours) : null;
  const next = hours ? nextOpeningAt({ hours, at: now }) : null;
  return businessProfileOutput.parse({
    name: row.name,
    description: row.description,
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
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "must not contain control characters"),
  // Standard Base64 (line breaks allowed), or a data: URL as a browser's FileReader produces it.
  data: z.string({ error: "is required (the file as Base64)" }).min(1, "is required (the file as Base64)"),
});
export type UploadDocumentInput = z.infer<typeof uploadDocumentInput>;

export const documentOutput = z.object({
  id: z.string(),
  filename: z.string(),
  size: z.number().int(),
  pages: z.number().int(),
  /** Characters of text extracted; 0 for a scanned PDF without a text layer. */
  text_length: z.number().int(),
  created_at: z.string(),
});
export type DocumentOutput = z.infer<typeof documentOutput>;

export const documentWithTextOutput = documentOutput.extend({ text: z.string() });

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
// Polishing

export const POLISH_TEXT_MAX = 4096;

export const polishInput = z.object({
  text: z
    .string({ error: "is required" })
    .max(POLISH_TEXT_MAX, `must be at most ${POLISH_TEXT_MAX} characters`)
    .refine((text) => text.trim().length > 0, "must not be empty"),
  style: z.enum(polishStyles, { error: `must be one of ${polishStyles.join(", ")}` }),
});
export type PolishInput = z.infer<typeof polishInput>;

export const polishOutput = z.object({
  text: z.string(),
  style: z.enum(polishStyles),
  engine: z.enum(["rules", "llm"]),
});
export type PolishOutput = z.infer<typeof polishOutput>;
