import { z } from "zod";
import { isoTimestamp } from "@/lib/platform/fields";
import { pricingCategories } from "./estimate";

export const MAX_RATES = 2_000;
const MAX_CSV_CHARS = 200_000;

export const priceRate = z
  .object({
    country_code: z
      .string({ error: "is required: a country calling code such as 34, or * for every other country" })
      .regex(/^(\*|[1-9]\d{0,3})$/, "must be a country calling code (1 to 4 digits, e.g. 34) or *")
      .meta({ example: "34" }),
    category: z.enum(pricingCategories, { error: `must be one of ${pricingCategories.join(", ")}` }),
    price: z.number({ error: "must be a number" }).min(0, "must not be negative").max(1000, "must be at most 1000").meta({ description: "Per message, in the table's currency.", example: 0.0572 }),
  })
  .meta({ id: "PriceRate" });

const currency = z
  .string({ error: "is required: an ISO 4217 code such as EUR" })
  .regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code such as EUR or USD")
  .meta({ example: "EUR" });

export const pricingInput = z
  .object({
    currency,
    rates: z.array(priceRate, { error: "must be a list of rates" }).min(1, "needs at least one rate").max(MAX_RATES, `allows at most ${MAX_RATES} rates`).optional(),
    csv: z
      .string({ error: "must be text" })
      .max(MAX_CSV_CHARS, `must be at most ${MAX_CSV_CHARS} characters`)
      .optional()
      .meta({ description: "The table as CSV instead of `rates`: a header line `country_code,category,price`, then one rate per line (`34,marketing,0.0572`). A bad line is a 400 naming it.", example: "country_code,category,price\n34,marketing,0.0572\n*,marketing,0.056" }),
  })
  .superRefine((input, ctx) => {
    if ((input.rates === undefined) === (input.csv === undefined)) ctx.addIssue({ code: "custom", path: ["rates"], message: "give exactly one of rates or csv" });
  })
  .meta({ id: "PricingUpdate", description: "A new price table: the currency and its rates, as a list or as CSV. It replaces the whole table." });
export type PricingInput = z.infer<typeof pricingInput>;

export const pricingOutput = z
  .strictObject({
    currency,
    rates: z.array(priceRate),
    source: z.enum(["default", "custom"]).meta({ description: "`default`: the table Chorus ships (see the docs); `custom`: the account's own." }),
    updated_at: isoTimestamp("When an admin last replaced it; absent for the default.").optional(),
  })
  .meta({ id: "Pricing", description: "What one message costs per country calling code and category; `*` is every country without its own row." });
export type PricingOutput = z.infer<typeof pricingOutput>;

export const estimateQuery = z.object({
  to: z.string({ error: "is required: the recipient's number, 8 to 15 digits" }).regex(/^\+?\d{8,15}$/, "must be 8 to 15 digits").meta({ example: "34911234567" }),
  category: z
    .string({ error: `is required: one of ${pricingCategories.join(", ")}` })
    .transform((value) => value.toLowerCase())
    .pipe(z.enum(pricingCategories, { error: `must be one of ${pricingCategories.join(", ")}` }))
    .meta({ example: "marketing" }),
});

export const estimateOutput = z
  .strictObject({
    category: z.enum(pricingCategories),
    country_code: z.string().nullable().meta({ description: "The recipient's country calling code; null when the number's country cannot be told." }),
    price: z.number().nullable().meta({ description: "One message's price by the table; null when the table has no row for it." }),
    currency,
    label: z.string().meta({ description: "As the template picker shows it.", example: "Marketing · ≈ 0.06 EUR" }),
  })
  .meta({ id: "PriceEstimate" });
