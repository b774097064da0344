import { z } from "zod";
import type { Contact } from "@/db/schema";
import { isoTimestamp, networkUserIdField, phoneDigits, prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";

export const MAX_ATTRIBUTES = 50;

const attributeKey = z
  .string()
  .trim()
  .min(1, "an attribute name is required")
  .max(64, "an attribute name is at most 64 characters");

const attributesSchema = z
  .record(attributeKey, z.string().max(1000, "an attribute value is at most 1,000 characters"))
  .refine((value) => Object.keys(value).length <= MAX_ATTRIBUTES, `at most ${MAX_ATTRIBUTES} attributes`)
  .meta({ description: `Free-form facts about the customer, name → text (at most ${MAX_ATTRIBUTES}).`, example: { plan: "gold", city: "Rosario" } });

const contactSorts = ["last_message", "name"] as const;
export type ContactSort = (typeof contactSorts)[number];

export const listContactsQuery = paginationQuery.extend({
  sort: z
    .enum(contactSorts, { error: "must be last_message or name" })
    .default("last_message")
    .meta({
      description:
        "`last_message` (default): whoever wrote or was written to most recently first; a contact without messages counts from its creation. `name`: A to Z ignoring case and accents, contacts without a name last, by number.",
      example: "name",
    }),
  // Decoded by the list, which knows its order: a cursor only continues the order it came from.
  cursor: z.string().min(1).optional().meta({ description: "`next_cursor` of the previous page, of the same `sort`." }),
  q: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional()
    .meta({ description: "Name, number or email contains this (case- and accent-insensitive).", example: "gomez" }),
});

const nullableText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max.toLocaleString("en")} characters`)
    .nullable()
    .transform((value) => (value === "" ? null : value))
    .meta({ description: `${label}; null or "" clears it.` });

export const updateContactInput = z
  .strictObject({
    name: nullableText(100, "1 to 100 characters").optional(),
    email: z
      .string()
      .trim()
      .max(254, "must be at most 254 characters")
      .pipe(z.union([z.literal(""), z.email("must be a valid email address")]))
      .nullable()
      .transform((value) => (value ? value.toLowerCase() : null))
      .optional()
      .meta({ description: "An email address; null or \"\" clears it.", example: "maria@example.com" }),
    notes: nullableText(5000, "Up to 5,000 characters").optional(),
    attributes: attributesSchema.optional().meta({ description: "Replaces all attributes." }),
    blocked: z
      .boolean()
      .optional()
      .meta({ description: "A blocked contact's messages are stored but reopen nothing, notify nobody and get no automatic answer; sends to them answer 409 `contact_blocked`." }),
    marketing_opt_in: z
      .boolean()
      .nullable()
      .optional()
      .meta({ description: "Consent to marketing (campaigns): true agreed, false opted out, null never asked." }),
  })
  .refine((value) => Object.values(value).some((v) => v !== undefined), "give at least one field to change")
  .meta({ id: "UpdateContact" });
export type UpdateContactInput = z.infer<typeof updateContactInput>;

export const contactDetailOutput = z
  .strictObject({
    id: prefixedId("contact"),
    phone: phoneDigits("The customer's number, digits only (E.164 without `+`); null for a customer known only by their business-scoped user id.").nullable(),
    network_user_id: networkUserIdField("The customer's business-scoped user id (BSUID) on the network, when it sent one: messages to a customer without a phone go there.").nullable(),
    username: z.string().nullable().meta({ description: "The customer's WhatsApp username, as the network last reported it.", example: "@maria.gomez" }),
    name: z.string().nullable().meta({ example: "María Gómez" }),
    email: z.string().nullable().meta({ example: "maria@example.com" }),
    notes: z.string().nullable(),
    attributes: z.record(z.string(), z.string()),
    blocked: z.boolean(),
    marketing_opt_in: z.boolean().nullable().meta({ description: "Consent to marketing: true agreed, false opted out (also by writing an opt-out keyword such as STOP), null never asked." }),
    labels: z.array(z.strictObject({ id: z.string(), name: z.string(), color: z.string() })).meta({ description: "Labels set on the contact itself (`PUT /v1/contacts/{id}/labels`)." }),
    created_at: isoTimestamp(),
    last_message_at: isoTimestamp("The latest message in any of their conversations.").nullable(),
    conversations_count: z.int().min(0),
  })
  .meta({ id: "ContactDetail", description: "A customer and what the team keeps about them." });
export type ContactDetailOutput = z.infer<typeof contactDetailOutput>;

export type ContactWithStats = Contact & { lastMessageAt: Date | null; conversationsCount: number };

export function presentContact(row: ContactWithStats): ContactDetailOutput {
  return {
    id: row.id,
    phone: row.phone,
    network_user_id: row.networkUserId,
    username: row.username,
    name: row.name,
    email: row.email,
    notes: row.notes,
    attributes: row.attributes ?? {},
    blocked: row.blocked,
    marketing_opt_in: row.marketingOptIn ?? null,
    labels: row.labels ?? [],
    created_at: row.createdAt.toISOString(),
    last_message_at: row.lastMessageAt ? row.lastMessageAt.toISOString() : null,
    conversations_count: row.conversationsCount,
  };
}
