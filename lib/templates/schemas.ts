import { z } from "zod";
import type { MessageTemplate, TemplateButton, TemplateComponents } from "@/db/schema";
import { validateMedia } from "@/lib/messages/media-rules";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

const templateCategories = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
const templateStatuses = ["PENDING", "APPROVED", "REJECTED"] as const;
const headerFormats = ["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const;
const buttonTypes = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"] as const;
/** The media kind of each media header: the network's limits for that kind apply. */
export const headerMediaKinds = { IMAGE: "image", VIDEO: "video", DOCUMENT: "document" } as const;
// The network's limits on a template's buttons.
const MAX_BUTTONS = 10;
const MAX_URL_BUTTONS = 2;
const MAX_PHONE_BUTTONS = 1;
const MAX_COPY_CODE_BUTTONS = 1;

const variablePattern = /\{\{\s*(\d+)\s*\}\}/g;

/** The numbers of the `{{n}}` placeholders of a text, in order of appearance. */
function variablesOf(text: string): number[] {
  return [...text.matchAll(variablePattern)].map((match) => Number(match[1]));
}

/** How many values a send must give: the body's placeholders {{1}}…{{n}}. */
export const variableCount = (components: Pick<TemplateComponents, "body">) => new Set(variablesOf(components.body.text)).size;

/** The body with `{{n}}` replaced by the n-th value. */
export function renderTemplateBody(components: Pick<TemplateComponents, "body">, variables: string[]): string {
  return components.body.text.replace(variablePattern, (whole, n: string) => variables[Number(n) - 1] ?? whole);
}

/** A URL button's address for a suffix value: its `{{1}}` replaced. */
export const urlWithSuffix = (url: string, suffix: string) => url.replace(variablePattern, suffix);
export const hasUrlVariable = (url: string) => variablesOf(url).length > 0;

const textPart = (max: number, what: string) =>
  z.object({ text: z.string({ error: `is required (1 to ${max} characters)` }).trim().min(1, "must not be empty").max(max, `must be at most ${max} characters`).meta({ description: what }) });

const buttonText = z.string({ error: "is required (1 to 25 characters)" }).trim().min(1, "must not be empty").max(25, "must be at most 25 characters");

const locationSchema = z
  .object({
    latitude: z.number({ error: "must be a number from -90 to 90" }).min(-90).max(90),
    longitude: z.number({ error: "must be a number from -180 to 180" }).min(-180).max(180),
    name: z.string().trim().max(1000).optional(),
    address: z.string().trim().max(1000).optional(),
  })
  .meta({ id: "TemplateLocation", description: "A place shown as a map at the top of the message." });

const headerMediaInput = z
  .object({
    mime_type: z.string({ error: "is required" }).min(1, "is required").meta({ example: "image/jpeg" }),
    data: z.string({ error: "is required (Base64 of the file)" }).meta({ contentEncoding: "base64" }),
    filename: z.string({ error: "must be a string" }).optional().meta({ example: "catalogue.pdf" }),
  })
  .meta({ description: "The header's file: JPEG or PNG up to 5 MB (IMAGE), MP4 or 3GPP up to 16 MB (VIDEO), PDF (DOCUMENT, a filename is required)." });

const headerInput = z
  .object({
    format: z.enum(headerFormats, { error: `must be one of ${headerFormats.join(", ")}` }).default("TEXT").meta({ description: "What the header shows; `TEXT` when absent." }),
    text: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(60, "must be at most 60 characters").optional().meta({ description: "A bold first line without variables (TEXT only)." }),
    media: headerMediaInput.optional().meta({ description: "Required for IMAGE, VIDEO and DOCUMENT: the example the network reviews, and the file sent when a send gives none. Uploaded to the network when the template is created." }),
    location: locationSchema.optional().meta({ description: "LOCATION only: the place sent when a send gives none (a send must give one otherwise)." }),
  })
  .superRefine((header, ctx) => {
    const issue = (path: string[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (header.format === "TEXT") {
      if (!header.text) issue(["text"], "is required for a TEXT header (1 to 60 characters)");
      else if (variablesOf(header.text).length > 0) issue(["text"], "must not contain variables");
    } else if (header.text !== undefined) issue(["text"], `is only for a TEXT header, not ${header.format}`);
    if (header.format === "IMAGE" || header.format === "VIDEO" || header.format === "DOCUMENT") {
      if (!header.media) return issue(["media"], `is required for ${header.format === "IMAGE" ? "an" : "a"} ${header.format} header: the network reviews it as the example`);
      const kind = headerMediaKinds[header.format];
      if (kind === "document" && header.media.mime_type.split(";")[0].trim().toLowerCase() !== "application/pdf") {
        issue(["media", "mime_type"], "must be application/pdf for a DOCUMENT header");
      }
      const checked = validateMedia({ type: kind, media: header.media });
      if (!checked.ok) for (const problem of checked.issues) issue(problem.path.split("."), problem.message.replace(/^media\.\w+ /, ""));
    } else if (header.media) issue(["media"], `is only for IMAGE, VIDEO or DOCUMENT headers, not ${header.format}`);
    if (header.format !== "LOCATION" && header.location) issue(["location"], "is only for a LOCATION header");
  })
  .meta({ id: "NewTemplateHeader" });

const buttonInput = z
  .object({
    type: z.string({ error: `is required: one of ${buttonTypes.join(", ")}` }).meta({ description: `One of ${buttonTypes.join(", ")}.` }),
    text: z.string({ error: "must be a string" }).optional().meta({ description: "The label (1 to 25 characters); not for COPY_CODE, whose label the network sets." }),
    url: z.string({ error: "must be a string" }).optional().meta({ description: "URL: the address, https, at most 2000 characters; may end with `{{1}}`, a suffix given at each send.", example: "https://shop.example/track/{{1}}" }),
    phone_number: z.string({ error: "must be a string" }).optional().meta({ description: "PHONE_NUMBER: the number called, digits with an optional leading +, at most 20.", example: "+34911234567" }),
    example: z.string({ error: "must be a string" }).optional().meta({ description: "URL with `{{1}}`: an example suffix (required). COPY_CODE: the example code (required, at most 15 characters). Both are also what a send gives when it names no value." }),
  })
  .superRefine((button, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const type = button.type;
    if (!(buttonTypes as readonly string[]).includes(type)) return issue("type", `must be one of ${buttonTypes.join(", ")}, not ${JSON.stringify(type).slice(0, 40)}`);
    if (type !== "COPY_CODE") {
      const text = buttonText.safeParse(button.text);
      if (!text.success) issue("text", text.error.issues[0]?.message ?? "is required");
    } else if (button.text !== undefined) issue("text", "is not allowed: the network labels a COPY_CODE button itself");
    if (type === "URL") {
      const url = button.url?.trim();
      if (!url) issue("url", "is required for a URL button");
      else if (!/^https?:\/\/[^\s]+$/i.test(url) || url.length > 2000) issue("url", "must be an http(s) address of at most 2000 characters");
      else {
        const numbers = variablesOf(url);
        if (numbers.length > 1 || (numbers.length === 1 && (numbers[0] !== 1 || !/\{\{\s*1\s*\}\}$/.test(url)))) issue("url", "may hold one variable, {{1}}, at its very end");
        else if (numbers.length === 1 && !button.example?.trim()) issue("example", "is required for a URL with {{1}}: an example suffix the network reviews");
      }
    } else if (button.url !== undefined) issue("url", "is only for a URL button");
    if (type === "PHONE_NUMBER") {
      if (!button.phone_number || !/^\+?\d{6,19}$/.test(button.phone_number.replace(/[\s-]/g, ""))) issue("phone_number", "is required: digits with an optional leading +, at most 20 characters");
    } else if (button.phone_number !== undefined) issue("phone_number", "is only for a PHONE_NUMBER button");
    if (type === "COPY_CODE") {
      const code = button.example?.trim();
      if (!code) issue("example", "is required for a COPY_CODE button: the example code (at most 15 characters)");
      else if (code.length > 15) issue("example", "must be at most 15 characters");
    }
    if (button.example !== undefined && (type === "QUICK_REPLY" || type === "PHONE_NUMBER")) issue("example", `is not allowed for a ${type} button`);
  })
  .meta({ id: "NewTemplateButton" });

const templateComponentsInput = z
  .object({
    header: headerInput.optional(),
    body: textPart(1024, "The message, with variables `{{1}}`, `{{2}}`… numbered from 1 without gaps.")
      .extend({
        examples: z
          .array(z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(1024), { error: "must be a list of strings" })
          .optional()
          .meta({ description: "Example values of `{{1}}`… for the network's review, one per variable; `sample 1`… when absent." }),
      })
      .superRefine((body, ctx) => {
        const numbers = [...new Set(variablesOf(body.text))].sort((a, b) => a - b);
        if (numbers.some((n, index) => n !== index + 1)) {
          ctx.addIssue({ code: "custom", path: ["text"], message: "variables must be numbered {{1}}, {{2}}… without gaps" });
        }
        if (body.examples && body.examples.length !== numbers.length) {
          ctx.addIssue({ code: "custom", path: ["examples"], message: `must give exactly ${numbers.length} example value${numbers.length === 1 ? "" : "s"}, one per variable` });
        }
      }),
    footer: textPart(60, "A grey last line, without variables.")
      .refine((footer) => variablesOf(footer.text).length === 0, { message: "must not contain variables", path: ["text"] })
      .optional(),
    buttons: z
      .array(buttonInput, { error: "must be a list of buttons" })
      .min(1, "needs at least 1 button when given")
      .max(MAX_BUTTONS, `allows at most ${MAX_BUTTONS} buttons`)
      .superRefine((buttons, ctx) => {
        const count = (type: string) => buttons.filter((b) => b.type === type).length;
        const limits: [string, number][] = [
          ["URL", MAX_URL_BUTTONS],
          ["PHONE_NUMBER", MAX_PHONE_BUTTONS],
          ["COPY_CODE", MAX_COPY_CODE_BUTTONS],
        ];
        for (const [type, max] of limits) {
          if (count(type) > max) ctx.addIssue({ code: "custom", path: [], message: `allows at most ${max} ${type} button${max === 1 ? "" : "s"}` });
        }
      })
      .optional()
      .meta({ description: `Up to ${MAX_BUTTONS} buttons: QUICK_REPLY (a tap comes back as a \`button\` message), URL (at most ${MAX_URL_BUTTONS}), PHONE_NUMBER (at most 1), COPY_CODE (at most 1).` }),
  })
  .meta({ id: "NewTemplateComponents" });
export type TemplateComponentsInput = z.infer<typeof templateComponentsInput>;

const buttonOutput = z
  .object({
    type: z.enum(buttonTypes),
    text: z.string().optional(),
    url: z.string().optional(),
    phone_number: z.string().optional(),
    example: z.string().optional(),
  })
  .meta({ id: "TemplateButton" });

const templateComponentsSchema = z
  .object({
    header: z
      .object({
        format: z.enum(headerFormats),
        text: z.string().optional(),
        media: z.object({ mime_type: z.string(), filename: z.string().optional(), size: z.int().min(0) }).optional().meta({ description: "The header's file (its bytes stay in Chorus)." }),
        location: locationSchema.optional(),
      })
      .optional(),
    body: z.object({ text: z.string(), examples: z.array(z.string()).optional() }),
    footer: z.object({ text: z.string() }).optional(),
    buttons: z.array(buttonOutput).optional(),
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
    components: templateComponentsInput,
  })
  .meta({
    id: "NewTemplate",
    example: {
      name: "order_shipped",
      language: "en_US",
      category: "UTILITY",
      components: {
        body: { text: "Hi {{1}}, your order {{2}} is on its way.", examples: ["Lucía", "#1042"] },
        buttons: [{ type: "URL", text: "Track it", url: "https://shop.example/track/{{1}}", example: "1042" }],
      },
    },
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

/** The stored components as the API shows them: the header's file described, never its bytes or the network's handle. */
function presentComponents(components: TemplateComponents): TemplateOutput["components"] {
  const { header, ...rest } = components;
  if (!header) return rest;
  const format = header.format ?? "TEXT";
  return {
    ...rest,
    header: {
      format,
      ...(header.text !== undefined ? { text: header.text } : {}),
      ...(header.media ? { media: { mime_type: header.media.mime_type, ...(header.media.filename ? { filename: header.media.filename } : {}), size: header.media.size } } : {}),
      ...(header.location ? { location: header.location } : {}),
    },
  };
}

export function presentTemplate(row: MessageTemplate): TemplateOutput {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    components: presentComponents(row.components),
    status: row.status,
    ...(row.rejectedReason ? { rejected_reason: row.rejectedReason } : {}),
    variables: variableCount(row.components),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The stored form of validated input buttons (types checked by the schema). */
export function storedButtons(buttons: TemplateComponentsInput["buttons"]): TemplateButton[] | undefined {
  return buttons?.map((b): TemplateButton => {
    switch (b.type) {
      case "URL":
        return { type: "URL", text: b.text!.trim(), url: b.url!.trim(), ...(b.example?.trim() ? { example: b.example.trim() } : {}) };
      case "PHONE_NUMBER":
        return { type: "PHONE_NUMBER", text: b.text!.trim(), phone_number: b.phone_number!.replace(/[\s-]/g, "") };
      case "COPY_CODE":
        return { type: "COPY_CODE", example: b.example!.trim() };
      default:
        return { type: "QUICK_REPLY", text: b.text!.trim() };
    }
  });
}
