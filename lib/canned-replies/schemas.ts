import { z } from "zod";
import type { CannedReply } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

export { fillCannedReply, shortcutSearchKey } from "./fill";

/**
 * Lower-case letters of any language (with their accents), letters of scripts without case,
 * digits, `_` and `-`: `/devolución`, `/ação`, `/配送`. Kept in Unicode normal form C, so the
 * same word typed with a precomposed or a combining accent is the same shortcut.
 */
const SHORTCUT_PATTERN = /^[\p{Ll}\p{Lo}\p{Lm}\p{Nd}_-][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}_-]*$/u;

const shortcut = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .overwrite((value) => value.normalize("NFC"))
  .refine((value) => [...value].length >= 1 && [...value].length <= 32, "must be 1 to 32 characters")
  .regex(SHORTCUT_PATTERN, "may contain only lower-case letters (any language), digits, _ and -")
  .meta({
    description: "What follows `/` in the composer: 1 to 32 lower-case letters of any language, digits, `_` or `-` (stored in Unicode NFC); unique in the account.",
    example: "devolución",
  });

const text = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .refine((value) => value.trim().length > 0, "must not be empty")
  .refine((value) => value.length <= 4096, "must be at most 4096 characters")
  .meta({
    description: "1 to 4096 characters. `{{contact.name}}`, `{{agent.name}}` and `{{business.name}}` are filled in when inserted.",
    example: "Hi {{contact.name}}, we ship in 2 days. — {{agent.name}}, {{business.name}}",
  });

export const createCannedReplyInput = z.strictObject({ shortcut, text }).meta({ id: "CannedReplyInput" });
export type CreateCannedReplyInput = z.infer<typeof createCannedReplyInput>;

export const updateCannedReplyInput = z
  .strictObject({ shortcut: shortcut.optional(), text: text.optional() })
  .refine((value) => value.shortcut !== undefined || value.text !== undefined, { message: "send shortcut, text or both", path: ["body"] })
  .meta({ id: "CannedReplyUpdate" });
export type UpdateCannedReplyInput = z.infer<typeof updateCannedReplyInput>;

export const cannedReplyOutput = z
  .strictObject({
    id: prefixedId("cannedReply"),
    shortcut: z.string().meta({ example: "shipping" }),
    text: z.string(),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "CannedReply", description: "A saved answer that agents insert with `/shortcut`." });
export type CannedReplyOutput = z.infer<typeof cannedReplyOutput>;

export function presentCannedReply(row: CannedReply): CannedReplyOutput {
  return { id: row.id, shortcut: row.shortcut, text: row.text, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

