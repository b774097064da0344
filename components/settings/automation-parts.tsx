"use client";

import { Button } from "@/components/ui/button";
import type { ActionType, AutomationActionInput, AutomationConditionInput } from "@/lib/automations/schemas";
import { actionTypes, automationEvents, conditionFields, conditionOperators, macroActionTypes, priorities, valuelessOperators } from "@/lib/automations/schemas";

type Priority = (typeof priorities)[number];

/** What the actions may name: the account's users, labels, canned replies, templates, teams and SLA policies. */
export type AutomationChoices = {
  users: { id: string; name: string }[];
  labels: { id: string; name: string }[];
  cannedReplies: { id: string; shortcut: string }[];
  templates: { name: string; language: string }[];
  teams: { id: string; name: string }[];
  slaPolicies: { id: string; name: string }[];
};

const priorityNames: Record<Priority, string> = { urgent: "Urgent", high: "High", medium: "Medium", low: "Low" };

export type ConditionDraft = AutomationConditionInput;
export type ActionDraft = { type: ActionType } & Record<string, unknown>;

export const eventLabels: Record<(typeof automationEvents)[number], string> = {
  "conversation.created": "A conversation starts",
  "message.received": "A customer message arrives",
  "conversation.assigned": "A conversation is assigned",
  "conversation.closed": "A conversation is closed",
  "conversation.reopened": "A conversation is reopened",
  "sla.breached": "An SLA target is missed",
};

const fieldLabels: Record<string, string> = {
  "message.text": "Message text",
  "message.language": "Message language",
  "contact.name": "Contact name",
  "contact.phone": "Contact phone",
  "contact.labels": "Contact's labels",
  "conversation.status": "Conversation status",
  "conversation.labels": "Conversation labels",
  "conversation.assignee_id": "Assignee",
  "conversation.priority": "Priority",
  "conversation.team_id": "Team",
  business_hours: "Business hours",
  attribute: "Contact attribute…",
};

const operatorLabels: Record<string, string> = {
  equals: "is",
  not_equals: "is not",
  contains: "contains",
  not_contains: "does not contain",
  starts_with: "starts with",
  matches: "matches pattern",
  is_present: "is set",
  is_absent: "is not set",
};

export const actionLabels: Record<ActionType, string> = {
  assign_user: "Assign to",
  add_label: "Add label",
  remove_label: "Remove label",
  assign_team: "Assign to team",
  assign_by_policy: "Assign by the team's policy",
  set_priority: "Set priority",
  apply_sla: "Apply SLA policy",
  send_canned_reply: "Send canned reply",
  send_template: "Send template",
  add_note: "Add internal note",
  snooze: "Snooze",
  close: "Close",
  emit_webhook: "Send webhook (automation.triggered)",
};

/** Inputs and selects: full width and 44 px tall on a phone, compact from `sm` up. */
export const control =
  "min-h-11 w-full rounded-md border border-slate-300 bg-white px-2.5 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100 sm:min-h-0 sm:w-auto sm:py-1.5";
export const touchButton = "min-h-11 sm:min-h-0";

const ATTRIBUTE = "contact.attributes.";

/** The name of a rule or macro: a labelled input that is a full touch target on a phone. */
export function NameField({ id, value, onChange, error }: { id: string; value: string; onChange: (v: string) => void; error?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        Name
      </label>
      <input
        id={id}
        className={`${control} sm:w-full`}
        value={value}
        maxLength={100}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A new action of `type` with its first choices filled in. */
export function defaultAction(type: ActionType, choices: AutomationChoices): ActionDraft {
  switch (type) {
    case "assign_user":
      return { type, user_id: choices.users[0]?.id ?? "" };
    case "add_label":
    case "remove_label":
      return { type, label_id: choices.labels[0]?.id ?? "" };
    case "assign_team":
      return { type, team_id: choices.teams[0]?.id ?? "" };
    case "set_priority":
      return { type, priority: "urgent" };
    case "apply_sla":
      return { type, sla_policy_id: choices.slaPolicies[0]?.id ?? "" };
    case "send_canned_reply":
      return { type, canned_reply_id: choices.cannedReplies[0]?.id ?? "" };
    case "send_template":
      return { type, name: choices.templates[0]?.name ?? "", language: choices.templates[0]?.language ?? "en", variables: [] };
    case "add_note":
      return { type, text: "" };
    case "snooze":
      return { type, duration_s: 3600 };
    default:
      return { type };
  }
}

/** The values a field takes from a fixed list (a priority, a team), for a picker instead of free text. */
function valueOptions(field: string, choices?: AutomationChoices): { value: string; label: string }[] | null {
  if (field === "conversation.priority") return priorities.map((p) => ({ value: p, label: priorityNames[p] }));
  if (field === "conversation.team_id" && choices) return choices.teams.map((t) => ({ value: t.id, label: t.name }));
  return null;
}

export function ConditionRow({
  condition,
  index,
  choices,
  onChange,
  onRemove,
  error,
}: {
  condition: ConditionDraft;
  index: number;
  choices?: AutomationChoices;
  onChange: (c: ConditionDraft) => void;
  onRemove: () => void;
  error?: string;
}) {
  const isAttribute = condition.field.startsWith(ATTRIBUTE);
  const valueless = valuelessOperators.includes(condition.operator);
  const options = ["equals", "not_equals"].includes(condition.operator) ? valueOptions(condition.field, choices) : null;
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-2 sm:flex-row sm:flex-wrap sm:items-center" data-testid="condition-row">
      <select
        aria-label={`Condition ${index + 1} field`}
        className={control}
        value={isAttribute ? "attribute" : condition.field}
        onChange={(e) => {
          const field = e.target.value === "attribute" ? `${ATTRIBUTE}tier` : e.target.value;
          const picked = ["equals", "not_equals"].includes(condition.operator) ? valueOptions(field, choices) : null;
          onChange({ ...condition, field, ...(picked ? { value: picked[0]?.value ?? "" } : {}) });
        }}
      >
        {[...conditionFields, "attribute"].map((f) => (
          <option key={f} value={f}>
            {fieldLabels[f] ?? f}
          </option>
        ))}
      </select>
      {isAttribute ? (
        <input
          aria-label={`Condition ${index + 1} attribute`}
          className={control}
          value={condition.field.slice(ATTRIBUTE.length)}
          placeholder="attribute key"
          onChange={(e) => onChange({ ...condition, field: `${ATTRIBUTE}${e.target.value}` })}
        />
      ) : null}
      <select
        aria-label={`Condition ${index + 1} operator`}
        className={control}
        value={condition.operator}
        onChange={(e) => {
          const operator = e.target.value as ConditionDraft["operator"];
          if (valuelessOperators.includes(operator)) return onChange({ field: condition.field, operator });
          // A picker shows its first choice: the draft holds it too, never a value the picker lacks.
          const picked = ["equals", "not_equals"].includes(operator) ? valueOptions(condition.field, choices) : null;
          const value = picked && !picked.some((o) => o.value === condition.value) ? (picked[0]?.value ?? "") : (condition.value ?? "");
          onChange({ ...condition, operator, value });
        }}
      >
        {conditionOperators.map((o) => (
          <option key={o} value={o}>
            {operatorLabels[o]}
          </option>
        ))}
      </select>
      {valueless ? null : options ? (
        <ChoiceSelect label={`Condition ${index + 1} value`} value={condition.value ?? ""} options={options} onChange={(v) => onChange({ ...condition, value: v })} />
      ) : (
        <input
          aria-label={`Condition ${index + 1} value`}
          className={`${control} sm:flex-1`}
          value={condition.value ?? ""}
          placeholder={condition.operator === "matches" ? "\\b(price|cost)\\b" : condition.field === "business_hours" ? "open or closed" : "value"}
          onChange={(e) => onChange({ ...condition, value: e.target.value })}
        />
      )}
      <Button type="button" variant="ghost" className={`${touchButton} px-2 py-1`} onClick={onRemove} aria-label={`Remove condition ${index + 1}`}>
        Remove
      </Button>
      {error ? (
        <p role="alert" className="w-full text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </li>
  );
}

function ChoiceSelect({ label, value, options, onChange }: { label: string; value: string; options: { value: string; label: string }[]; onChange: (v: string) => void }) {
  return (
    <select aria-label={label} className={control} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.length === 0 ? <option value="">None yet</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

export function ActionRow({
  action,
  index,
  choices,
  forMacro = false,
  onChange,
  onRemove,
  error,
}: {
  action: ActionDraft;
  index: number;
  choices: AutomationChoices;
  forMacro?: boolean;
  onChange: (a: ActionDraft) => void;
  onRemove: () => void;
  error?: string;
}) {
  const name = `Action ${index + 1}`;
  const set = (patch: Record<string, unknown>) => onChange({ ...action, ...patch });
  let detail: React.ReactNode = null;
  switch (action.type) {
    case "assign_user":
      detail = <ChoiceSelect label={`${name} user`} value={String(action.user_id ?? "")} options={choices.users.map((u) => ({ value: u.id, label: u.name }))} onChange={(v) => set({ user_id: v })} />;
      break;
    case "add_label":
    case "remove_label":
      detail = <ChoiceSelect label={`${name} label`} value={String(action.label_id ?? "")} options={choices.labels.map((l) => ({ value: l.id, label: l.name }))} onChange={(v) => set({ label_id: v })} />;
      break;
    case "assign_team":
      detail = <ChoiceSelect label={`${name} team`} value={String(action.team_id ?? "")} options={choices.teams.map((t) => ({ value: t.id, label: t.name }))} onChange={(v) => set({ team_id: v })} />;
      break;
    case "set_priority":
      detail = (
        <ChoiceSelect
          label={`${name} priority`}
          value={action.priority === null ? "none" : String(action.priority ?? "urgent")}
          options={[...priorities.map((p) => ({ value: p, label: priorityNames[p] })), { value: "none", label: "None" }]}
          onChange={(v) => set({ priority: v === "none" ? null : v })}
        />
      );
      break;
    case "apply_sla":
      detail = (
        <ChoiceSelect label={`${name} SLA policy`} value={String(action.sla_policy_id ?? "")} options={choices.slaPolicies.map((p) => ({ value: p.id, label: p.name }))} onChange={(v) => set({ sla_policy_id: v })} />
      );
      break;
    case "send_canned_reply":
      detail = (
        <ChoiceSelect label={`${name} canned reply`} value={String(action.canned_reply_id ?? "")} options={choices.cannedReplies.map((c) => ({ value: c.id, label: `/${c.shortcut}` }))} onChange={(v) => set({ canned_reply_id: v })} />
      );
      break;
    case "send_template":
      detail = (
        <>
          <ChoiceSelect
            label={`${name} template`}
            value={`${action.name}|${action.language}`}
            options={choices.templates.map((t) => ({ value: `${t.name}|${t.language}`, label: `${t.name} (${t.language})` }))}
            onChange={(v) => set({ name: v.split("|")[0], language: v.split("|")[1] })}
          />
          <input
            aria-label={`${name} values`}
            className={`${control} sm:flex-1`}
            placeholder="values, comma-separated"
            value={((action.variables as string[] | undefined) ?? []).join(",")}
            onChange={(e) => set({ variables: e.target.value ? e.target.value.split(",").map((v) => v.trim()) : [] })}
          />
        </>
      );
      break;
    case "add_note":
      detail = <input aria-label={`${name} note`} className={`${control} sm:flex-1`} value={String(action.text ?? "")} placeholder="Note for the team" onChange={(e) => set({ text: e.target.value })} />;
      break;
    case "snooze":
      detail = (
        <ChoiceSelect
          label={`${name} duration`}
          value={String(action.duration_s)}
          options={[
            { value: "3600", label: "1 hour" },
            { value: "14400", label: "4 hours" },
            { value: "86400", label: "1 day" },
            { value: "604800", label: "1 week" },
          ]}
          onChange={(v) => set({ duration_s: Number(v) })}
        />
      );
      break;
  }
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-2 sm:flex-row sm:flex-wrap sm:items-center" data-testid="action-row">
      <select aria-label={`${name} type`} className={control} value={action.type} onChange={(e) => onChange(defaultAction(e.target.value as ActionType, choices))}>
        {(forMacro ? macroActionTypes : actionTypes).map((t) => (
          <option key={t} value={t}>
            {actionLabels[t]}
          </option>
        ))}
      </select>
      {detail}
      <Button type="button" variant="ghost" className={`${touchButton} px-2 py-1`} onClick={onRemove} aria-label={`Remove action ${index + 1}`}>
        Remove
      </Button>
      {error ? (
        <p role="alert" className="w-full text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** The action list as the API takes it. */
export const actionsOf = (drafts: ActionDraft[]) => drafts as unknown as AutomationActionInput[];

/** One line in words: "Add label VIP", "Assign to Ana". */
export function describeAction(action: { type: string } & Record<string, unknown>, choices: AutomationChoices): string {
  const label = actionLabels[action.type as ActionType] ?? action.type;
  switch (action.type) {
    case "assign_user":
      return `${label} ${choices.users.find((u) => u.id === action.user_id)?.name ?? "a former teammate"}`;
    case "add_label":
    case "remove_label":
      return `${label} ${choices.labels.find((l) => l.id === action.label_id)?.name ?? "(deleted label)"}`;
    case "assign_team":
      return `${label} ${choices.teams.find((t) => t.id === action.team_id)?.name ?? "(deleted team)"}`;
    case "set_priority":
      return `${label} ${action.priority ? priorityNames[action.priority as Priority] : "none"}`;
    case "apply_sla":
      return `${label} ${choices.slaPolicies.find((p) => p.id === action.sla_policy_id)?.name ?? "(deleted policy)"}`;
    case "send_canned_reply":
      return `${label} /${choices.cannedReplies.find((c) => c.id === action.canned_reply_id)?.shortcut ?? "(deleted)"}`;
    case "send_template":
      return `${label} ${String(action.name)}`;
    case "snooze":
      return `${label} ${Math.round(Number(action.duration_s) / 3600)} h`;
    default:
      return label;
  }
}

export function describeCondition(condition: { field: string; operator: string; value?: string }, choices?: AutomationChoices): string {
  const field = condition.field.startsWith(ATTRIBUTE) ? `attribute ${condition.field.slice(ATTRIBUTE.length)}` : (fieldLabels[condition.field] ?? condition.field);
  const value = condition.field === "conversation.team_id" ? (choices?.teams.find((t) => t.id === condition.value)?.name ?? condition.value) : condition.value;
  return `${field} ${operatorLabels[condition.operator] ?? condition.operator}${value !== undefined ? ` “${value}”` : ""}`;
}
