import { z } from "zod";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { labelIdPattern } from "@/lib/conversations/schemas";

const campaignStatuses = ["draft", "scheduled", "sending", "paused", "done", "cancelled"] as const;

/** A recipient's status as the API shows it: where its message is, or why it got none. */
const recipientStatuses = ["queued", "sent", "delivered", "read", "replied", "failed", "skipped"] as const;
export type RecipientStatus = (typeof recipientStatuses)[number];

const contactIdPattern = /^ctc_[0-9a-z]{26}$/;
const MAX_AUDIENCE_CONTACT_IDS = 10_000;
const MAX_OPT_OUT_KEYWORDS = 20;
export const DEFAULT_OPT_OUT_KEYWORDS = ["STOP", "BAJA", "PARAR", "SAIR"];
export const DEFAULT_MESSAGES_PER_SECOND = 80;

/** `contact.name`, `contact.attributes.<key>` or `literal` (with `value`). */
const variableSource = z
  .string()
  .regex(/^(contact\.name|contact\.phone|contact\.attributes\.[^\s]{1,64}|literal)$/, "must be contact.name, contact.phone, contact.attributes.<key> or literal")
  .meta({ description: "Where the value comes from for each recipient: `contact.name`, `contact.phone`, `contact.attributes.<key>` or `literal` (then `value`).", example: "contact.name" });

const campaignVariable = z
  .strictObject({
    source: variableSource,
    value: z.string().min(1, "must not be empty").max(1024, "must be at most 1,024 characters").optional().meta({ description: "The text for a `literal` source." }),
  })
  .refine((v) => v.source !== "literal" || v.value !== undefined, { message: "a literal variable needs a value", path: ["value"] })
  .refine((v) => v.source === "literal" || v.value === undefined, { message: "only a literal variable has a value", path: ["value"] })
  .meta({ id: "CampaignVariable" });

const campaignTemplateInput = z
  .strictObject({
    name: z.string().min(1, "is required").max(512).meta({ example: "spring_catalogue" }),
    language: z.string().min(2, "is required").max(15).meta({ example: "en_US" }),
    variables: z.array(campaignVariable).max(20, "at most 20 variables").default([]).meta({ description: "One entry per body variable, in order ({{1}}, {{2}}, …)." }),
  })
  .meta({ id: "CampaignTemplate" });

const campaignAudience = z
  .strictObject({
    label_ids: z
      .array(z.string().regex(labelIdPattern, "must be a label id (lbl_...)"))
      .min(1, "give at least one label, or leave it out")
      .max(50, "at most 50 labels")
      .optional()
      .meta({ description: "Contacts carrying any of these labels, on themselves or on one of their conversations." }),
    attributes: z
      .record(z.string().min(1).max(64), z.string().max(1000))
      .refine((value) => Object.keys(value).length > 0 && Object.keys(value).length <= 20, "give 1 to 20 attributes, or leave it out")
      .optional()
      .meta({ description: "Contacts whose attributes have every one of these values (exact match).", example: { city: "Rosario" } }),
    contact_ids: z
      .array(z.string().regex(contactIdPattern, "must be a contact id (ctc_...)"))
      .min(1, "give at least one contact, or leave it out")
      .max(MAX_AUDIENCE_CONTACT_IDS, `at most ${MAX_AUDIENCE_CONTACT_IDS.toLocaleString("en")} contacts`)
      .optional()
      .meta({ description: "A list of contacts." }),
  })
  .refine((a) => a.label_ids || a.attributes || a.contact_ids, "give label_ids, attributes or contact_ids (a contact must meet every one given)")
  .meta({ id: "CampaignAudience", description: "Who the campaign goes to: a contact must meet every criterion given." });

const campaignName = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters").meta({ example: "Spring catalogue" });

export const createCampaignInput = z
  .strictObject({
    name: campaignName,
    template: campaignTemplateInput,
    audience: campaignAudience,
  })
  .meta({ id: "CreateCampaign" });
export type CreateCampaignInput = z.infer<typeof createCampaignInput>;

export const updateCampaignInput = z
  .strictObject({
    name: campaignName.optional(),
    template: campaignTemplateInput.optional(),
    audience: campaignAudience.optional(),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), "give at least one field to change")
  .meta({ id: "UpdateCampaign" });
export type UpdateCampaignInput = z.infer<typeof updateCampaignInput>;

export const scheduleCampaignInput = z
  .strictObject({
    send_at: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 timestamp" })
      .optional()
      .meta({ description: "When to start; absent or in the past: now. At most a year ahead.", example: "2026-03-21T09:00:00.000Z" }),
  })
  .meta({ id: "ScheduleCampaign" });

const campaignCounts = z
  .strictObject({
    recipients: z.int().min(0).meta({ description: "Contacts in the audience (before sending starts: the audience as it is now)." }),
    queued: z.int().min(0).meta({ description: "Still to be handed to the network." }),
    sent: z.int().min(0).meta({ description: "Handed to the network (including those delivered and read since)." }),
    delivered: z.int().min(0).meta({ description: "Delivered to the phone (including those read since)." }),
    read: z.int().min(0),
    replied: z.int().min(0).meta({ description: "Recipients who wrote back after the campaign's message." }),
    failed: z.int().min(0),
    skipped: z.int().min(0).meta({ description: "No consent, opted out, blocked, a missing variable, or cancelled before their turn." }),
  })
  .meta({ id: "CampaignCounts" });

const campaignCost = z
  .strictObject({
    amount: z.number().min(0).meta({ description: "The sum of one message's price per recipient who would be messaged, by the account's price table.", example: 114.4 }),
    currency: z.string().meta({ example: "EUR" }),
    priced: z.int().min(0).meta({ description: "Recipients with a price in the table." }),
    unpriced: z.int().min(0).meta({ description: "Recipients whose country has no price in the table (not in `amount`)." }),
  })
  .meta({ id: "CampaignCost" });

export const campaignOutput = z
  .strictObject({
    id: prefixedId("campaign"),
    name: z.string(),
    template: z.strictObject({
      name: z.string(),
      language: z.string(),
      variables: z.array(z.strictObject({ source: z.string(), value: z.string().optional() })),
    }),
    audience: z.strictObject({
      label_ids: z.array(z.string()).optional(),
      attributes: z.record(z.string(), z.string()).optional(),
      contact_ids: z.array(z.string()).optional(),
    }),
    send_at: isoTimestamp("When it starts (scheduled) or started.").nullable(),
    status: z.enum(campaignStatuses),
    counts: campaignCounts,
    estimated_cost: campaignCost.nullable(),
    created_at: isoTimestamp(),
  })
  .meta({ id: "Campaign", description: "An approved template sent to an audience of contacts." });
export type CampaignOutput = z.infer<typeof campaignOutput>;

export const recipientOutput = z
  .strictObject({
    contact_id: prefixedId("contact"),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    status: z.enum(recipientStatuses),
    reason: z
      .string()
      .nullable()
      .meta({ description: "Why it was skipped (`no_consent`, `opted_out`, `blocked`, `missing_variable`, `cancelled`) or failed (`interrupted`, or the network's error code).", example: "opted_out" }),
    message_id: prefixedId("message").nullable(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "CampaignRecipient" });

export const recipientsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: "Page size, 1 to 100." }),
  cursor: z
    .string()
    .regex(/^[0-9]{1,18}$/, "must be the next_cursor of the previous page")
    .optional()
    .meta({ description: "`next_cursor` of the previous page." }),
  status: z.enum(recipientStatuses, { error: `must be one of ${recipientStatuses.join(", ")}` }).optional(),
});

export const audiencePreviewInput = z
  .strictObject({
    audience: campaignAudience,
    template: z.strictObject({ name: z.string().min(1), language: z.string().min(2) }).optional(),
  })
  .meta({ id: "AudiencePreviewInput" });

export const audiencePreviewOutput = z
  .strictObject({
    count: z.int().min(0).meta({ description: "Contacts in the audience." }),
    eligible: z.int().min(0).meta({ description: "Those who would be messaged now." }),
    skipped: z.strictObject({ no_consent: z.int().min(0), opted_out: z.int().min(0), blocked: z.int().min(0) }),
    sample: z.array(z.strictObject({ id: prefixedId("contact"), name: z.string().nullable(), phone: z.string().nullable(), eligible: z.boolean() })).meta({ description: "Up to 10 contacts of the audience." }),
    estimated_cost: campaignCost.nullable().meta({ description: "For `template`'s category; null without a template." }),
  })
  .meta({ id: "AudiencePreview" });

export const campaignSettingsInput = z
  .strictObject({
    messages_per_second: z.int("must be an integer from 1 to 1000").min(1, "must be from 1 to 1000").max(1000, "must be from 1 to 1000").optional().meta({ example: 80 }),
    require_opt_in: z.boolean().optional(),
    opt_out_keywords: z
      .array(z.string().trim().min(1, "must not be empty").max(30, "must be at most 30 characters"))
      .max(MAX_OPT_OUT_KEYWORDS, `at most ${MAX_OPT_OUT_KEYWORDS} keywords`)
      .optional()
      .meta({ example: DEFAULT_OPT_OUT_KEYWORDS }),
  })
  .meta({ id: "CampaignSettingsInput" });
export type CampaignSettingsInput = z.infer<typeof campaignSettingsInput>;

export const campaignSettingsOutput = z
  .strictObject({
    messages_per_second: z.int().meta({ description: "Campaign messages handed to the network per second (1 to 1000; 80 is the network's standard cap)." }),
    require_opt_in: z.boolean().meta({ description: "Skip contacts who never agreed (`marketing_opt_in: null`)." }),
    opt_out_keywords: z.array(z.string()).meta({ description: "A customer message that is exactly one of these (ignoring case, accents and surrounding spaces) opts them out." }),
  })
  .meta({ id: "CampaignSettings" });
export type CampaignSettingsOutput = z.infer<typeof campaignSettingsOutput>;

export const setContactLabelsInput = z
  .strictObject({
    label_ids: z
      .array(z.string().regex(labelIdPattern, "must be a label id (lbl_...)"))
      .max(20, "at most 20 labels")
      .meta({ description: "Every label the contact should carry (replaces the current set; [] removes all)." }),
  })
  .meta({ id: "SetContactLabels" });

export const contactLabelsOutput = z
  .strictObject({
    contact_id: prefixedId("contact"),
    labels: z.array(z.strictObject({ id: z.string(), name: z.string(), color: z.string() })),
  })
  .meta({ id: "ContactLabels" });
