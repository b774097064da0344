import { z } from "zod";
import type { SlaPolicy } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";

const slaPolicyIdPattern = /^sla_[0-9a-z]{26}$/;
export type SlaKind = "first_response" | "next_response" | "resolution";

const duration = (what: string) =>
  z
    .int("must be a whole number of seconds from 60 to 2592000")
    .min(60, "must be a whole number of seconds from 60 to 2592000")
    .max(2_592_000, "must be a whole number of seconds from 60 to 2592000")
    .nullable()
    .meta({ description: `${what}, in seconds (1 minute to 30 days); null: no target.`, example: 900 });

const slaFields = {
  name: z.string().trim().min(1, "is required").max(60, "must be at most 60 characters").meta({ description: "1 to 60 characters, unique in the account (ignoring case).", example: "Urgent: 15 minutes" }),
  first_response_s: duration("Time from the customer's first message to a person's first answer"),
  next_response_s: duration("Time from each later customer message to a person's answer"),
  resolution_s: duration("Time from the conversation's start to its close"),
  business_hours_only: z.boolean().meta({ description: "Count only the business's opening hours (the clock pauses while it is closed); the wall clock when no hours are set." }),
  default: z.boolean().meta({ description: "Applied to every new conversation (one policy at most; setting it takes it from the previous one)." }),
};

const atLeastOneTarget = (value: { first_response_s?: number | null; next_response_s?: number | null; resolution_s?: number | null }) =>
  value.first_response_s != null || value.next_response_s != null || value.resolution_s != null;

export const createSlaPolicyInput = z
  .strictObject({
    name: slaFields.name,
    first_response_s: slaFields.first_response_s.default(null),
    next_response_s: slaFields.next_response_s.default(null),
    resolution_s: slaFields.resolution_s.default(null),
    business_hours_only: slaFields.business_hours_only.default(false),
    default: slaFields.default.default(false),
  })
  .refine(atLeastOneTarget, { message: "set at least one of first_response_s, next_response_s, resolution_s", path: ["first_response_s"] })
  .meta({ id: "CreateSlaPolicy" });
export type CreateSlaPolicyInput = z.infer<typeof createSlaPolicyInput>;

export const updateSlaPolicyInput = z
  .strictObject({
    name: slaFields.name.optional(),
    first_response_s: slaFields.first_response_s.optional(),
    next_response_s: slaFields.next_response_s.optional(),
    resolution_s: slaFields.resolution_s.optional(),
    business_hours_only: slaFields.business_hours_only.optional(),
    default: slaFields.default.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "send at least one field to change" })
  .meta({ id: "UpdateSlaPolicy" });
export type UpdateSlaPolicyInput = z.infer<typeof updateSlaPolicyInput>;

export const slaPolicyOutput = z
  .strictObject({
    id: prefixedId("slaPolicy"),
    name: z.string(),
    first_response_s: z.int().nullable(),
    next_response_s: z.int().nullable(),
    resolution_s: z.int().nullable(),
    business_hours_only: z.boolean(),
    default: z.boolean().meta({ description: "Applied to every new conversation." }),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "SlaPolicy", description: "Response and resolution targets for conversations." });
export type SlaPolicyOutput = z.infer<typeof slaPolicyOutput>;

export function presentSlaPolicy(row: SlaPolicy, defaultId: string | null): SlaPolicyOutput {
  return {
    id: row.id,
    name: row.name,
    first_response_s: row.firstResponseS,
    next_response_s: row.nextResponseS,
    resolution_s: row.resolutionS,
    business_hours_only: row.businessHoursOnly,
    default: row.id === defaultId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export const applySlaInput = z
  .strictObject({ sla_policy_id: z.string().regex(slaPolicyIdPattern, "must be an SLA policy id (sla_...)").nullable().meta({ description: "The policy; null removes it." }) })
  .meta({ id: "ApplySla" });
