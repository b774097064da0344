"use client";

import { useTranslations } from "next-intl";
import { Fragment } from "react";
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

export type ConditionDraft = AutomationConditionInput;
export type ActionDraft = { type: ActionType } & Record<string, unknown>;

type AutomationEvent = (typeof automationEvents)[number];

/**
 * The words of the builder in the reader's language: events, fields, operators, actions and
 * priorities by code, and a saved rule's conditions and actions described in a line.
 */
export function useAutomationWords() {
  const t = useTranslations("settingsAutomations");
  const tp = useTranslations("teamControls.priority");
  const events: Record<AutomationEvent, string> = {
    "conversation.created": t("event.created"),
    "message.received": t("event.received"),
    "conversation.assigned": t("event.assigned"),
    "conversation.closed": t("event.closed"),
    "conversation.reopened": t("event.reopened"),
    "sla.breached": t("event.slaBreached"),
  };
  const fields: Record<string, string> = {
    "message.text": t("field.messageText"),
    "message.language": t("field.messageLanguage"),
    "contact.name": t("field.contactName"),
    "contact.phone": t("field.contactPhone"),
    "contact.labels": t("field.contactLabels"),
    "conversation.status": t("field.status"),
    "conversation.labels": t("field.conversationLabels"),
    "conversation.assignee_id": t("field.assignee"),
    "conversation.priority": t("field.priority"),
    "conversation.team_id": t("field.team"),
    business_hours: t("field.businessHours"),
    attribute: t("field.attribute"),
  };
  const operators: Record<string, string> = {
    equals: t("operator.equals"),
    not_equals: t("operator.notEquals"),
    contains: t("operator.contains"),
    not_contains: t("operator.notContains"),
    starts_with: t("operator.startsWith"),
    matches: t("operator.matches"),
    is_present: t("operator.isPresent"),
    is_absent: t("operator.isAbsent"),
  };
  const actions: Record<ActionType, string> = {
    assign_user: t("action.assignUser"),
    add_label: t("action.addLabel"),
    remove_label: t("action.removeLabel"),
    assign_team: t("action.assignTeam"),
    assign_by_policy: t("action.assignByPolicy"),
    set_priority: t("action.setPriority"),
    apply_sla: t("action.applySla"),
    send_canned_reply: t("action.sendCannedReply"),
    send_template: t("action.sendTemplate"),
    add_note: t("action.addNote"),
    snooze: t("action.snooze"),
    close: t("action.close"),
    emit_webhook: t("action.emitWebhook"),
  };
  const priorityNames: Record<Priority, string> = { urgent: tp("urgent"), high: tp("high"), medium: tp("medium"), low: tp("low") };
  const typed = (text: string) => <span data-user-content>{text}</span>;
  const markTyped = (chunks: React.ReactNode) => <span data-user-content>{chunks}</span>;

  /** One line in words: "Add label VIP", "Assign to Ana"; names a person typed are marked as theirs. */
  function describeAction(action: { type: string } & Record<string, unknown>, choices: AutomationChoices): React.ReactNode {
    const label = actions[action.type as ActionType] ?? action.type;
    const target = (() => {
      switch (action.type) {
        case "assign_user": {
          const name = choices.users.find((u) => u.id === action.user_id)?.name;
          return name ? typed(name) : t("formerTeammate");
        }
        case "add_label":
        case "remove_label": {
          const name = choices.labels.find((l) => l.id === action.label_id)?.name;
          return name ? typed(name) : t("deletedLabel");
        }
        case "assign_team": {
          const name = choices.teams.find((team) => team.id === action.team_id)?.name;
          return name ? typed(name) : t("deletedTeam");
        }
        case "set_priority":
          return action.priority ? priorityNames[action.priority as Priority] : t("priorityNone");
        case "apply_sla": {
          const name = choices.slaPolicies.find((p) => p.id === action.sla_policy_id)?.name;
          return name ? typed(name) : t("deletedPolicy");
        }
        case "send_canned_reply": {
          const shortcut = choices.cannedReplies.find((c) => c.id === action.canned_reply_id)?.shortcut;
          return shortcut ? typed(`/${shortcut}`) : t("deleted");
        }
        case "send_template":
          return <span translate="no">{String(action.name)}</span>;
        case "snooze":
          return t("duration.hours", { count: Math.round(Number(action.duration_s) / 3600) });
        default:
          return null;
      }
    })();
    return target === null ? label : (
      <>
        {label} {target}
      </>
    );
  }

  /** "Team is not “Sales”": the field, the operator and what a person typed, marked as theirs. */
  function describeCondition(condition: { field: string; operator: string; value?: string }, choices?: AutomationChoices): React.ReactNode {
    const field = condition.field.startsWith(ATTRIBUTE)
      ? t.rich("field.attributeNamed", { name: condition.field.slice(ATTRIBUTE.length), typed: markTyped })
      : (fields[condition.field] ?? condition.field);
    let value: string | undefined = condition.value;
    if (condition.field === "conversation.team_id") value = choices?.teams.find((team) => team.id === condition.value)?.name ?? condition.value;
    const shown =
      value === undefined ? null : condition.field === "conversation.priority" && value in priorityNames ? (
        priorityNames[value as Priority]
      ) : (
        t.rich("quoted", { value, typed: markTyped })
      );
    return (
      <>
        {field} {operators[condition.operator] ?? condition.operator}
        {shown === null ? null : <> {shown}</>}
      </>
    );
  }

  return { t, events, fields, operators, actions, priorityNames, describeAction, describeCondition };
}

/** The nodes with `separator` between them. */
export function joinNodes(nodes: React.ReactNode[], separator: React.ReactNode): React.ReactNode {
  return nodes.map((node, i) => (
    <Fragment key={i}>
      {i > 0 ? separator : null}
      {node}
    </Fragment>
  ));
}

/** Inputs and selects: full width and 44 px tall on a phone, compact from `sm` up. */
export const control =
  "min-h-11 w-full rounded-md border border-slate-300 bg-white px-2.5 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100 sm:min-h-0 sm:w-auto sm:py-1.5";
export const touchButton = "min-h-11 sm:min-h-0";

const ATTRIBUTE = "contact.attributes.";

/** The name of a rule or macro: a labelled input that is a full touch target on a phone. */
export function NameField({ id, value, onChange, error }: { id: string; value: string; onChange: (v: string) => void; error?: string }) {
  const t = useTranslations("settingsAutomations");
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t("name")}
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
function valueOptions(field: string, priorityNames: Record<Priority, string>, choices?: AutomationChoices): Option[] | null {
  if (field === "conversation.priority") return priorities.map((p) => ({ value: p, label: priorityNames[p] }));
  if (field === "conversation.team_id" && choices) return choices.teams.map((team) => ({ value: team.id, label: team.name, typed: true }));
  return null;
}

/** The end of a condition's or an action's row: its Remove button and what is wrong with it. */
function RowEnd({ removeLabel, removeText, onRemove, error }: { removeLabel: string; removeText: string; onRemove: () => void; error?: string }) {
  return (
    <>
      <Button type="button" variant="ghost" className={`${touchButton} px-2 py-1`} onClick={onRemove} aria-label={removeLabel}>
        {removeText}
      </Button>
      {error ? (
        <p role="alert" className="w-full text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </>
  );
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
  const { t, fields, operators, priorityNames } = useAutomationWords();
  const number = index + 1;
  const isAttribute = condition.field.startsWith(ATTRIBUTE);
  const valueless = valuelessOperators.includes(condition.operator);
  const options = ["equals", "not_equals"].includes(condition.operator) ? valueOptions(condition.field, priorityNames, choices) : null;
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-2 sm:flex-row sm:flex-wrap sm:items-center" data-testid="condition-row">
      <select
        aria-label={t("conditionField", { number })}
        className={control}
        value={isAttribute ? "attribute" : condition.field}
        onChange={(e) => {
          const field = e.target.value === "attribute" ? `${ATTRIBUTE}tier` : e.target.value;
          const picked = ["equals", "not_equals"].includes(condition.operator) ? valueOptions(field, priorityNames, choices) : null;
          onChange({ ...condition, field, ...(picked ? { value: picked[0]?.value ?? "" } : {}) });
        }}
      >
        {[...conditionFields, "attribute"].map((f) => (
          <option key={f} value={f}>
            {fields[f] ?? f}
          </option>
        ))}
      </select>
      {isAttribute ? (
        <input
          aria-label={t("conditionAttribute", { number })}
          className={control}
          value={condition.field.slice(ATTRIBUTE.length)}
          placeholder={t("attributePlaceholder")}
          onChange={(e) => onChange({ ...condition, field: `${ATTRIBUTE}${e.target.value}` })}
        />
      ) : null}
      <select
        aria-label={t("conditionOperator", { number })}
        className={control}
        value={condition.operator}
        onChange={(e) => {
          const operator = e.target.value as ConditionDraft["operator"];
          if (valuelessOperators.includes(operator)) return onChange({ field: condition.field, operator });
          // A picker shows its first choice: the draft holds it too, never a value the picker lacks.
          const picked = ["equals", "not_equals"].includes(operator) ? valueOptions(condition.field, priorityNames, choices) : null;
          const value = picked && !picked.some((o) => o.value === condition.value) ? (picked[0]?.value ?? "") : (condition.value ?? "");
          onChange({ ...condition, operator, value });
        }}
      >
        {conditionOperators.map((o) => (
          <option key={o} value={o}>
            {operators[o]}
          </option>
        ))}
      </select>
      {valueless ? null : options ? (
        <ChoiceSelect label={t("conditionValue", { number })} value={condition.value ?? ""} options={options} onChange={(v) => onChange({ ...condition, value: v })} />
      ) : (
        <input
          aria-label={t("conditionValue", { number })}
          className={`${control} sm:flex-1`}
          value={condition.value ?? ""}
          placeholder={condition.operator === "matches" ? "\\b(price|cost)\\b" : condition.field === "business_hours" ? t("hoursPlaceholder") : t("valuePlaceholder")}
          onChange={(e) => onChange({ ...condition, value: e.target.value })}
        />
      )}
      <RowEnd removeLabel={t("removeCondition", { number })} removeText={t("remove")} onRemove={onRemove} error={error} />
    </li>
  );
}

/** A choice of the list; `typed` marks a name a person gave (a team, a user), `code` one that stays as it is. */
type Option = { value: string; label: string; typed?: boolean; code?: boolean };

function ChoiceSelect({ label, value, options, onChange }: { label: string; value: string; options: Option[]; onChange: (v: string) => void }) {
  const t = useTranslations("settingsAutomations");
  return (
    <select aria-label={label} className={control} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.length === 0 ? <option value="">{t("noneYet")}</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value} data-user-content={o.typed ? "" : undefined} translate={o.code ? "no" : undefined}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

function ActionRow({
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
  const { t, actions, priorityNames } = useAutomationWords();
  const number = index + 1;
  const set = (patch: Record<string, unknown>) => onChange({ ...action, ...patch });
  let detail: React.ReactNode = null;
  switch (action.type) {
    case "assign_user":
      detail = <ChoiceSelect label={t("actionUser", { number })} value={String(action.user_id ?? "")} options={choices.users.map((u) => ({ value: u.id, label: u.name, typed: true }))} onChange={(v) => set({ user_id: v })} />;
      break;
    case "add_label":
    case "remove_label":
      detail = <ChoiceSelect label={t("actionLabel", { number })} value={String(action.label_id ?? "")} options={choices.labels.map((l) => ({ value: l.id, label: l.name, typed: true }))} onChange={(v) => set({ label_id: v })} />;
      break;
    case "assign_team":
      detail = <ChoiceSelect label={t("actionTeam", { number })} value={String(action.team_id ?? "")} options={choices.teams.map((team) => ({ value: team.id, label: team.name, typed: true }))} onChange={(v) => set({ team_id: v })} />;
      break;
    case "set_priority":
      detail = (
        <ChoiceSelect
          label={t("actionPriority", { number })}
          value={action.priority === null ? "none" : String(action.priority ?? "urgent")}
          options={[...priorities.map((p) => ({ value: p, label: priorityNames[p] })), { value: "none", label: t("priorityNone") }]}
          onChange={(v) => set({ priority: v === "none" ? null : v })}
        />
      );
      break;
    case "apply_sla":
      detail = (
        <ChoiceSelect label={t("actionSla", { number })} value={String(action.sla_policy_id ?? "")} options={choices.slaPolicies.map((p) => ({ value: p.id, label: p.name, typed: true }))} onChange={(v) => set({ sla_policy_id: v })} />
      );
      break;
    case "send_canned_reply":
      detail = (
        <ChoiceSelect label={t("actionCannedReply", { number })} value={String(action.canned_reply_id ?? "")} options={choices.cannedReplies.map((c) => ({ value: c.id, label: `/${c.shortcut}`, typed: true }))} onChange={(v) => set({ canned_reply_id: v })} />
      );
      break;
    case "send_template":
      detail = (
        <>
          <ChoiceSelect
            label={t("actionTemplate", { number })}
            value={`${action.name}|${action.language}`}
            options={choices.templates.map((template) => ({ value: `${template.name}|${template.language}`, label: `${template.name} (${template.language})`, code: true }))}
            onChange={(v) => set({ name: v.split("|")[0], language: v.split("|")[1] })}
          />
          <input
            aria-label={t("actionValues", { number })}
            className={`${control} sm:flex-1`}
            placeholder={t("valuesPlaceholder")}
            value={((action.variables as string[] | undefined) ?? []).join(",")}
            onChange={(e) => set({ variables: e.target.value ? e.target.value.split(",").map((v) => v.trim()) : [] })}
          />
        </>
      );
      break;
    case "add_note":
      detail = <input aria-label={t("actionNote", { number })} className={`${control} sm:flex-1`} value={String(action.text ?? "")} placeholder={t("notePlaceholder")} onChange={(e) => set({ text: e.target.value })} />;
      break;
    case "snooze":
      detail = (
        <ChoiceSelect
          label={t("actionDuration", { number })}
          value={String(action.duration_s)}
          options={[
            { value: "3600", label: t("duration.hours", { count: 1 }) },
            { value: "14400", label: t("duration.hours", { count: 4 }) },
            { value: "86400", label: t("duration.days", { count: 1 }) },
            { value: "604800", label: t("duration.weeks", { count: 1 }) },
          ]}
          onChange={(v) => set({ duration_s: Number(v) })}
        />
      );
      break;
  }
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-2 sm:flex-row sm:flex-wrap sm:items-center" data-testid="action-row">
      <select aria-label={t("actionType", { number })} className={control} value={action.type} onChange={(e) => onChange(defaultAction(e.target.value as ActionType, choices))}>
        {(forMacro ? macroActionTypes : actionTypes).map((type) => (
          <option key={type} value={type}>
            {actions[type]}
          </option>
        ))}
      </select>
      {detail}
      <RowEnd removeLabel={t("removeAction", { number })} removeText={t("remove")} onRemove={onRemove} error={error} />
    </li>
  );
}

/** The list of actions, in order, each removable, with a button adding one (`added`) at the end. */
export function ActionList({
  legend,
  addLabel,
  actions,
  added,
  choices,
  forMacro,
  errors,
  onChange,
}: {
  legend: string;
  addLabel: string;
  actions: ActionDraft[];
  added: ActionType;
  choices: AutomationChoices;
  forMacro?: boolean;
  errors: Record<string, string>;
  onChange: (actions: ActionDraft[]) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">{legend}</legend>
      <ul className="flex flex-col gap-2">
        {actions.map((action, i) => (
          <ActionRow
            key={i}
            index={i}
            action={action}
            choices={choices}
            forMacro={forMacro}
            error={Object.entries(errors).find(([path]) => path.startsWith(`actions.${i}`))?.[1]}
            onChange={(a) => onChange(actions.map((old, j) => (j === i ? a : old)))}
            onRemove={() => onChange(actions.filter((_, j) => j !== i))}
          />
        ))}
      </ul>
      {errors.actions ? <p className="text-xs text-red-600">{errors.actions}</p> : null}
      <div>
        <Button type="button" variant="secondary" className={`${touchButton} px-2.5 py-1`} onClick={() => onChange([...actions, defaultAction(added, choices)])}>
          {addLabel}
        </Button>
      </div>
    </fieldset>
  );
}

/** The action list as the API takes it. */
export const actionsOf = (drafts: ActionDraft[]) => drafts as unknown as AutomationActionInput[];
