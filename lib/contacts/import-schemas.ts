import { z } from "zod";

export const MAX_IMPORT_ROWS = 20_000;
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export const importContactsInput = z
  .strictObject({
    csv: z
      .string()
      .min(1, "is required")
      .max(MAX_IMPORT_BYTES, "must be at most 5 MiB")
      .meta({ description: `The file's text: a header row naming the columns (\`phone\` required; \`name\`, \`email\`, \`marketing_opt_in\`; any other column becomes an attribute), then one contact per row, at most ${MAX_IMPORT_ROWS.toLocaleString("en")}.`, example: "phone,name,city\n+34 612 34 56 78,María Gómez,Madrid\n" }),
    preview: z.boolean().default(false).meta({ description: "true: check every row and report, import nothing." }),
    default_country: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be a two-letter country code such as ES")
      .optional()
      .meta({ description: "The country of numbers written without `+` and country code.", example: "ES" }),
    marketing_opt_in: z
      .boolean()
      .optional()
      .meta({ description: "Consent for every row that has no `marketing_opt_in` cell of its own (only when the customers agreed, e.g. at checkout)." }),
  })
  .meta({ id: "ImportContacts" });
export type ImportContactsInput = z.infer<typeof importContactsInput>;

export const importContactsOutput = z
  .strictObject({
    preview: z.boolean(),
    rows: z.int().min(0).meta({ description: "Data rows read (the header not counted)." }),
    valid: z.int().min(0),
    created: z.int().min(0).meta({ description: "New contacts (0 in a preview)." }),
    updated: z.int().min(0).meta({ description: "Existing contacts (same number) updated (0 in a preview)." }),
    errors: z
      .array(z.strictObject({ line: z.int().min(1), column: z.string().nullable(), message: z.string() }))
      .meta({ description: "Every row left out, with why (at most 1,000 listed)." }),
    sample: z
      .array(z.strictObject({ line: z.int(), phone: z.string(), name: z.string().nullable(), marketing_opt_in: z.boolean().nullable(), attributes: z.record(z.string(), z.string()), exists: z.boolean() }))
      .meta({ description: "The first 20 valid rows as they would be imported." }),
  })
  .meta({ id: "ContactImport" });
export type ImportContactsOutput = z.infer<typeof importContactsOutput>;
