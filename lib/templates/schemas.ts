import { z } from "zod";
import type { MessageTemplate, TemplateComponents } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

export const templateCategories = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export const templateStatuses = ["PENDING", "APPROVED", "REJECTED"] as const;

const variablePattern = /\{\{\s*(\d+)\s*\}\}/g;

/** The numbers of the `{{n}}` placeholders of a text, in order of appearance. */
export function variablesOf(text: string): number[] {
  return [...text.matchAll(variablePattern)].map((match) => Number(match[1]));
}

/** How many values a send must give: the body's placeholders {{1}}…{{n}}. */
export const variableCount = (components: TemplateComponents) => new Set(variablesOf(components.body.text)).size;

/** The body with `{{n}}` replaced by the n-th value. */
export function renderTemplateBody(components: TemplateComponents, variables: string[]): string {
  return components.body.text.replace(variablePattern, (whole, n: string) => variables[Number(n) - 1] ?? whole);
}

const textPart = (max: number, what: string) =>
  z.object({ text: z.string({ error: `is required (1 to ${max} characters)` }).trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`).meta({ description: what }) });

export const templateComponentsSchema = z
  .object({
    header: textPart(60, "A bold first line, without variables.")
      .refine((header) => variablesOf(header.text).length === 0, { message: "must not contain variables", path: ["text"] })
      .optional(),
    body: textPart(1024, "The message, with variables `{{1}}`, `{{2}}`… numbered from 1 without gaps.").superRefine((body, ctx) => {
      const numbers = [...new Set(variablesOf(body.text))].sort((a, b) => a - b);
      if (numbers.some((n, index) => n !== index + 1)) {
        ctx.addIssue({ code: "custom", path: ["text"], message: "variables must be numbered {{1}}, {{2}}… without gaps" });
      }
    }),
    footer: textPart(60, "A grey last line, without variables.")
      .refine((footer) => variablesOf(footer.text).length === 0, { message: "must not contain variables", path: ["text"] })
      .optional(),
    buttons: z
      .array(
        z.object({
          type: z.literal("QUICK_REPLY", { error: 'must be "QUICK_REPLY"' }),
          text: z.string({ error: "is required (1 to 25 characters)" }).trim().min(1, "must not be empty").max(25, "must be at most 25 characters"),
        }),
      )
      .min(1, "needs at least 1 button when given")
      .max(10, "allows at most 10 buttons")
      .optional()
      .meta({ description: "Quick-reply buttons; a tap comes back as a `button` message `{text, payload}`." }),
  })
  .meta({ id: "TemplateComponents" });

export const createTemplateInput = z
  .object({
    name: z
      .string({ error: "is required: lower-case letters, digits and _ (at most 512)" })
      .regex(/^[a-z0-9_]{1,512}$/, "must be lower-case letters, digits and _ (1 to 512 characters)")
      .meta({ example: "order_shipped" }),
    language: z
      .string({ error: "is required, e.g. en_US" })
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, "must be a language code such as en, en_US, es_AR or pt_BR")
      .meta({ example: "en_US" }),
    category: z.enum(templateCategories, { error: `is required: one of ${templateCategories.join(", ")}` }),
    components: templateComponentsSchema,
  })
  .meta({
    id: "NewTemplate",
    example: { name: "order_shipped", language: "en_US", category: "UTILITY", components: { body: { text: "Hi {{1}}, your order {{2}} is on its way." } } },
  });
export type CreateTemplateInput = z.infer<typeof createTemplateInput>;

export const templateOutput = z
  .strictObject({
    id: prefixedId("template"),
    name: z.string().meta({ example: "order_shipped" }),
    language: z.string().meta({ example: "en_US" }),
    category: z.enum(templateCategories),
    components: templateComponentsSchema,
    status: z.enum(templateStatuses).meta({ description: "`PENDING` while the network reviews it; only `APPROVED` templates can be sent." }),
    rejected_reason: z.string().optional().meta({ description: "Why the network rejected it." }),
    variables: z.int().min(0).meta({ description: "How many values a send must give (`{{1}}`…)." }),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "Template", description: "A message template: the only kind of message a business may send outside the 24-hour customer-service window." });
export type TemplateOutput = z.infer<typeof templateOutput>;

export function presentTemplate(row: MessageTemplate): TemplateOutput {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    components: row.components,
    status: row.status,
    ...(row.rejectedReason ? { rejected_reason: row.rejectedReason } : {}),
    variables: variableCount(row.components),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
