import { z } from "zod";
import type { Automation, Macro } from "@/db/schema";
import type { Priority } from "@/lib/conversations/schemas";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { unsafePatternReason } from "./safe-regex";

/**
 * The events a rule can react to. Each comes from the verb that records it, and the rules run
 * in that verb's transaction.
 */
export const automationEvents = ["conversation.created", "message.received", "conversation.assigned", "conversation.closed", "conversation.reopened", "sla.breached"] as const;
export type AutomationEvent = (typeof automationEvents)[number];

/** Fields a condition can test; `contact.attributes.<key>` names one attribute of the contact. */
export const conditionFields = [
  "message.text",
  "message.language",
  "contact.name",
  "contact.phone",
  "contact.labels",
  "conversation.status",
  "conversation.labels",
  "conversation.assignee_id",
  "conversation.priority",
  "conversation.team_id",
  "business_hours",
] as const;
export type ConditionField = (typeof conditionFields)[number] | `contact.attributes.${string}`;
export const ATTRIBUTE_FIELD_PREFIX = "contact.attributes.";

export const conditionOperators = ["equals", "not_equals", "contains", "not_contains", "starts_with", "matches", "is_present", "is_absent"] as const;
export type ConditionOperator = (typeof conditionOperators)[number];
/** Operators that test presence only and take no value. */
export const valuelessOperators: readonly ConditionOperator[] = ["is_present", "is_absent"];

/**
 * The priorities, for the schemas and the builder (which runs in the browser and must not pull
 * in the conversations module): exactly the conversations' `Priority`, checked by the compiler.
 */
export const priorities = ["urgent", "high", "medium", "low"] as const satisfies readonly Priority[];
const everyPriority: [Exclude<Priority, (typeof priorities)[number]>] extends [never] ? true : never = true;
void everyPriority;

const MAX_CONDITIONS = 20;
const MAX_ACTIONS = 20;

const isKnownField = (field: string) =>
  (conditionFields as readonly string[]).includes(field) || /^contact\.attributes\.[^\s]{1,64}$/.test(field);

const automationCondition = z
  .strictObject({
    field: z
      .string()
      .refine(isKnownField, `must be one of ${conditionFields.join(", ")} or contact.attributes.<key>`)
      .meta({ description: "What the condition tests.", example: "message.text" }),
    operator: z.enum(conditionOperators).meta({ description: "`matches` takes a regular expression (RE2 syntax, case-insensitive, ≤ 200 characters; no backreferences or lookaround)." }),
    value: z.string().max(500, "must be at most 500 characters").optional().meta({ description: "What to compare with; absent for is_present and is_absent.", example: "price" }),
  })
  .superRefine((condition, issue) => {
    const valueless = valuelessOperators.includes(condition.operator);
    if (valueless && condition.value !== undefined) issue.addIssue({ code: "custom", path: ["value"], message: `must be absent for ${condition.operator}` });
    if (!valueless && condition.value === undefined) issue.addIssue({ code: "custom", path: ["value"], message: "is required" });
    if (condition.operator === "matches" && condition.value !== undefined) {
      const reason = unsafePatternReason(condition.value);
      if (reason) issue.addIssue({ code: "custom", path: ["value"], message: reason });
    }
    if (condition.field === "business_hours" && condition.value !== undefined && !["open", "closed"].includes(condition.value)) {
      issue.addIssue({ code: "custom", path: ["value"], message: "must be open or closed" });
    }
    // A priority compares by name only: a misspelt one would silently never hold.
    const exact = ["equals", "not_equals"].includes(condition.operator);
    if (condition.field === "conversation.priority" && exact && condition.value !== undefined && !(priorities as readonly string[]).includes(condition.value.toLowerCase())) {
      issue.addIssue({ code: "custom", path: ["value"], message: `must be one of ${priorities.join(", ")}` });
    }
  })
  .meta({ id: "AutomationCondition", description: "One test; a rule runs when all of its conditions hold." });
export type AutomationConditionInput = z.infer<typeof automationCondition>;

const id = (pattern: RegExp, what: string) => z.string().regex(pattern, `must be ${what}`);
const userId = id(/^usr_[0-9a-z]{26}$/, "a user id (usr_…)");
const labelId = id(/^lbl_[0-9a-z]{26}$/, "a label id (lbl_…)");
const cannedReplyId = id(/^cr_[0-9a-z]{26}$/, "a canned reply id (cr_…)");
const teamId = id(/^team_[0-9a-z]{26}$/, "a team id (team_…)");
const slaPolicyId = id(/^sla_[0-9a-z]{26}$/, "an SLA policy id (sla_…)");

const MAX_SNOOZE_S = 90 * 86_400;

/**
 * Every action, by `type`. An action that names something (a user, a label, a canned reply, a
 * template) is checked against the account when the rule or macro is saved.
 */
const actionSchemas = {
  assign_user: z.strictObject({ type: z.literal("assign_user"), user_id: userId }),
  add_label: z.strictObject({ type: z.literal("add_label"), label_id: labelId }),
  remove_label: z.strictObject({ type: z.literal("remove_label"), label_id: labelId }),
  assign_team: z.strictObject({ type: z.literal("assign_team"), team_id: teamId }),
  assign_by_policy: z.strictObject({ type: z.literal("assign_by_policy") }),
  set_priority: z.strictObject({
    type: z.literal("set_priority"),
    priority: z.enum(priorities, { error: `must be one of ${priorities.join(", ")}, or null` }).nullable().meta({ description: "The priority to set; null removes it." }),
  }),
  apply_sla: z.strictObject({ type: z.literal("apply_sla"), sla_policy_id: slaPolicyId }),
  send_canned_reply: z.strictObject({ type: z.literal("send_canned_reply"), canned_reply_id: cannedReplyId }),
  send_template: z.strictObject({
    type: z.literal("send_template"),
    name: z.string().min(1, "is required").max(512),
    language: z.string().min(2, "is required").max(15),
    variables: z.array(z.string().min(1).max(1024)).max(20).default([]),
  }),
  add_note: z.strictObject({ type: z.literal("add_note"), text: z.string().trim().min(1, "must not be empty").max(4096, "must be at most 4096 characters") }),
  snooze: z.strictObject({ type: z.literal("snooze"), duration_s: z.int().min(60, "must be at least 60 seconds").max(MAX_SNOOZE_S, "must be at most 90 days") }),
  close: z.strictObject({ type: z.literal("close") }),
  emit_webhook: z.strictObject({ type: z.literal("emit_webhook") }),
} as const;
export type ActionType = keyof typeof actionSchemas;
export const actionTypes = Object.keys(actionSchemas) as ActionType[];
/** What a macro may do: every action but the webhook, which belongs to rules. */
export const macroActionTypes = actionTypes.filter((t) => t !== "emit_webhook");

const automationAction = z
  .discriminatedUnion("type", Object.values(actionSchemas) as unknown as [z.ZodObject, ...z.ZodObject[]], {
    error: (issue) => (issue.code === "invalid_union" ? `type must be one of ${actionTypes.join(", ")}` : undefined),
  })
  .meta({ id: "AutomationAction", description: "One thing to do, by `type`." }) as unknown as z.ZodType<AutomationActionInput>;
export type AutomationActionInput = { [K in ActionType]: z.output<(typeof actionSchemas)[K]> }[ActionType];

const macroAction = automationAction.refine((action) => action.type !== "emit_webhook", "emit_webhook is for automations only").meta({ id: "MacroAction" });

const name = z.string().trim().min(1, "is required").max(100, "must be at most 100 characters").meta({ description: "1 to 100 characters.", example: "Price questions to Sales" });
const conditions = z.array(automationCondition).max(MAX_CONDITIONS, `at most ${MAX_CONDITIONS} conditions`);
const actions = z.array(automationAction).min(1, "needs at least one action").max(MAX_ACTIONS, `at most ${MAX_ACTIONS} actions`);
const position = z.int().min(0, "must be 0 or more").max(10_000).meta({ description: "0-based place among the account's rules; the others move to make room." });

export const createAutomationInput = z
  .strictObject({
    name,
    enabled: z.boolean().default(true),
    event: z.enum(automationEvents).meta({ description: "The event the rule reacts to." }),
    conditions: conditions.default([]),
    actions,
    position: position.optional(),
  })
  .meta({ id: "AutomationInput" });
export type CreateAutomationInput = z.infer<typeof createAutomationInput>;

export const updateAutomationInput = z
  .strictObject({
    name: name.optional(),
    enabled: z.boolean().optional(),
    event: z.enum(automationEvents).optional(),
    conditions: conditions.optional(),
    actions: actions.optional(),
    position: position.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: "send at least one field", path: ["body"] })
  .meta({ id: "AutomationUpdate" });
export type UpdateAutomationInput = z.infer<typeof updateAutomationInput>;

export const previewAutomationInput = z
  .strictObject({ event: z.enum(automationEvents), conditions: conditions.default([]) })
  .meta({ id: "AutomationPreviewInput" });

export const automationPreviewOutput = z
  .strictObject({
    matched: z.int().meta({ description: "How many of the sampled conversations the conditions would have matched." }),
    sampled: z.int().meta({ description: "How many conversations were looked at: the account's last 1,000 at most (fewer when cut short)." }),
    cut_short: z.boolean().meta({
      description: "True when the preview ran out of its time budget (heavy patterns on long messages) and stopped early: `matched` counts only the `sampled` newest conversations.",
    }),
  })
  .meta({ id: "AutomationPreview" });
export type AutomationPreviewOutput = z.infer<typeof automationPreviewOutput>;

const conditionOutput = z.strictObject({ field: z.string(), operator: z.enum(conditionOperators), value: z.string().optional() });
const actionOutput = z.looseObject({ type: z.enum(actionTypes as [ActionType, ...ActionType[]]) }).meta({ description: "One action, as saved (see AutomationAction)." });

export const automationOutput = z
  .strictObject({
    id: prefixedId("automation"),
    name: z.string(),
    enabled: z.boolean(),
    event: z.enum(automationEvents),
    conditions: z.array(conditionOutput),
    actions: z.array(actionOutput),
    position: z.int(),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "Automation", description: "A rule: when `event` happens and every condition holds, the actions run in order." });
export type AutomationOutput = z.infer<typeof automationOutput>;

export function presentAutomation(row: Automation): AutomationOutput {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    event: row.event as AutomationEvent,
    conditions: row.conditions as AutomationOutput["conditions"],
    actions: row.actions as AutomationOutput["actions"],
    position: row.position,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// Macros

const macroActions = z.array(macroAction).min(1, "needs at least one action").max(MAX_ACTIONS, `at most ${MAX_ACTIONS} actions`);
const visibility = z.enum(["personal", "account"]).meta({ description: "`personal`: only its owner sees and runs it; `account`: everyone does (admins only may save one)." });

export const createMacroInput = z.strictObject({ name, visibility: visibility.default("personal"), actions: macroActions }).meta({ id: "MacroInput" });
export type CreateMacroInput = z.infer<typeof createMacroInput>;

export const updateMacroInput = z
  .strictObject({ name: name.optional(), visibility: visibility.optional(), actions: macroActions.optional() })
  .refine((value) => Object.keys(value).length > 0, { message: "send at least one field", path: ["body"] })
  .meta({ id: "MacroUpdate" });
export type UpdateMacroInput = z.infer<typeof updateMacroInput>;

export const macroOutput = z
  .strictObject({
    id: prefixedId("macro"),
    name: z.string(),
    visibility: z.enum(["personal", "account"]),
    owner_id: prefixedId("user"),
    actions: z.array(actionOutput),
    created_at: isoTimestamp(),
    updated_at: isoTimestamp(),
  })
  .meta({ id: "Macro", description: "A named list of actions a person runs on a conversation in one click." });
export type MacroOutput = z.infer<typeof macroOutput>;

export function presentMacro(row: Macro): MacroOutput {
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility,
    owner_id: row.ownerId,
    actions: row.actions as MacroOutput["actions"],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export const macroRunOutput = z
  .strictObject({
    macro_id: prefixedId("macro"),
    conversation_id: prefixedId("conversation"),
    actions: z.array(z.strictObject({ type: z.enum(actionTypes as [ActionType, ...ActionType[]]), result: z.enum(["done", "skipped"]), reason: z.string().optional() })),
  })
  .meta({ id: "MacroRun", description: "What each action of the macro did." });
export type MacroRunOutput = z.infer<typeof macroRunOutput>;
