import { z } from "zod";
import type { CannedReply } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

const shortcut = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .min(1, "must be 1 to 32 characters")
  .max(32, "must be 1 to 32 characters")
  .regex(/^[a-z0-9_-]+$/, "may contain only a-z, 0-9, _ and -")
  .meta({ description: "What follows `/` in the composer: 1 to 32 of a-z, 0-9, `_`, `-`; unique in the account.", example: "shipping" });

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

/** The variables a canned reply may use, filled in when it is inserted. */
export type CannedReplyVariables = { "contact.name": string; "agent.name": string; "business.name": string };

/** Fills `{{contact.name}}`, `{{agent.name}}`, `{{business.name}}`; unknown placeholders stay as written. */
export function fillCannedReply(template: string, values: CannedReplyVariables): string {
  return template.replace(/\{\{\s*(contact\.name|agent\.name|business\.name)\s*\}\}/g, (_, key: keyof CannedReplyVariables) => values[key]);
}
