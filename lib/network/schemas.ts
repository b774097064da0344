import { isValidPhoneNumber } from "libphonenumber-js/max";
import { z } from "zod";
import { isoTimestamp } from "@/lib/platform/fields";

// A form posts blank inputs as ""; for every field that means "not given".
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optionalText = (max: number, pattern?: { regex: RegExp; message: string }) => {
  let base = z.string().trim().max(max, `must be at most ${max} characters`);
  if (pattern) base = base.regex(pattern.regex, pattern.message);
  return z.preprocess(blankToUndefined, base.nullish());
};
const networkId = { regex: /^[A-Za-z0-9_-]+$/, message: "must be the id shown in the network's console (letters, digits, - or _)" };
const noSpaces = { regex: /^\S+$/, message: "must not contain spaces" };

const e164Schema = z
  .string()
  .trim()
  .refine((value) => /^\+[1-9]\d{6,14}$/.test(value), "must be in E.164 format: + then the country code and number, digits only (e.g. +14155552671)")
  .refine((value) => !/^\+[1-9]\d{6,14}$/.test(value) || isValidPhoneNumber(value), "is not a valid phone number for its country code");

const providerSchema = z
  .enum(["sandbox", "cloud"], { error: "must be sandbox or cloud" })
  .meta({ description: "`sandbox` (no external service; customers are simulated) or `cloud` (a WhatsApp-Cloud-API-compatible network)." });

const writeOnly = "Write-only: omit it (or send an empty string) to keep the stored value, `null` to clear it.";

/** PUT /v1/config/number replaces the integration; `cloud` needs every field the network requires. */
export const numberConfigInput = z
  .object({
    provider: providerSchema,
    phone_number: z.preprocess(blankToUndefined, e164Schema.nullish()).meta({ description: "The business number in E.164 with `+` (cloud).", example: "+14155552671" }),
    phone_number_id: optionalText(64, networkId).meta({ description: "The number's id in the network's console (cloud)." }),
    business_account_id: optionalText(64, networkId).meta({ description: "The business account id in the network's console (cloud)." }),
    // Write-only: omitted (or blank) keeps the stored value, null clears it.
    access_token: optionalText(4096, noSpaces).meta({ description: `The network's access token (cloud). ${writeOnly}` }),
    app_secret: optionalText(256, noSpaces).meta({ description: `Checks the signature of the network's callbacks (cloud). ${writeOnly}` }),
    verify_token: optionalText(256, noSpaces).meta({ description: "Answers the network's callback handshake at `/api/network/webhook` (cloud)." }),
    // Omitted or null: the Graph API. An empty string is not a URL (format uri): a 400.
    api_base_url: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL (omit it or send null for the default)" })
      .max(2048, "must be at most 2048 characters")
      .nullish()
      .meta({ description: "The network's API base URL; the Graph API by default (omit it or send null).", example: "https://graph.facebook.com/v21.0" }),
    coexistence: z
      .boolean({ error: "must be true or false" })
      .default(false)
      .meta({ description: "The number stays usable in the business app and its messages sync into the inbox." }),
  })
  .meta({ description: "`sandbox` needs nothing else. `cloud` needs phone_number, phone_number_id, business_account_id, access_token, app_secret and verify_token (each missing one is named in a 400)." });
export type NumberConfigInput = z.infer<typeof numberConfigInput>;

const numberStatuses = ["sandbox", "pending", "connected", "error"] as const;

export const numberConfigOutput = z
  .object({
    provider: z.enum(["sandbox", "cloud"]),
    phone_number: z.string().nullable().meta({ description: "E.164 with `+`.", example: "+14155552671" }),
    phone_number_id: z.string().nullable(),
    business_account_id: z.string().nullable(),
    access_token_set: z.boolean().meta({ description: "Whether an access token is stored (it is never returned)." }),
    app_secret_set: z.boolean().meta({ description: "Whether an app secret is stored (it is never returned)." }),
    verify_token: z.string().nullable(),
    api_base_url: z.string().meta({ example: "https://graph.facebook.com/v21.0" }),
    coexistence: z.boolean(),
    status: z.enum(numberStatuses).meta({ description: "`sandbox`; for cloud `pending` until a connection test, then `connected` or `error`." }),
    status_reason: z.string().nullable().meta({ description: "The last connection test's error." }),
    webhook_url: z.string().meta({ description: "The callback URL to enter in the network's console.", example: "https://chorus.example.com/api/network/webhook" }),
    quality_rating: z
      .string()
      .nullable()
      .meta({ description: "The network's quality rating of the number: `GREEN` (high), `YELLOW` (medium), `RED` (low, the number is flagged); null until the network reports it (`phone_number_quality_update`).", example: "GREEN" }),
    messaging_limit_tier: z
      .string()
      .nullable()
      .meta({ description: "How many customers a day the number may start conversations with, as the network names it (`TIER_250`, `TIER_1K`, `TIER_10K`, `TIER_100K`, `TIER_UNLIMITED`); null until reported.", example: "TIER_1K" }),
    health_updated_at: isoTimestamp("When the network last reported the number's quality or limit.").nullable(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "NumberConfig", description: "The number integration. `access_token` and `app_secret` are write-only." });
export type NumberConfigOutput = z.infer<typeof numberConfigOutput>;

export const numberTestOutput = z
  .object({
    ok: z.boolean().meta({ description: "Whether the network accepted the saved settings." }),
    message: z.string().meta({ description: "What the network answered, in a sentence." }),
    status: z.enum(numberStatuses).meta({ description: "The number's status after the test." }),
  })
  .meta({ id: "NumberConnectionTest", description: "The outcome of a connection test." });
export type NumberTestOutput = z.infer<typeof numberTestOutput>;
