"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { StatusNote } from "@/components/ui/status-note";
import { type ApiResult, requestJson } from "@/lib/client/api";
import type { AutomationOutput, AutomationPreviewOutput } from "@/lib/automations/schemas";
import { automationEvents } from "@/lib/automations/schemas";
import {
  type ActionDraft,
  ActionList,
  actionsOf,
  type AutomationChoices,
  type ConditionDraft,
  ConditionRow,
  control,
  defaultAction,
  joinNodes,
  NameField,
  touchButton,
  useAutomationWords,
} from "./automation-parts";
import { useListMutation } from "./use-list-mutation";

type Rule = AutomationOutput;
type RulePage = { data: Rule[]; pagination: { next_cursor: string | null } };
type Draft = { id?: string; name: string; event: Rule["event"]; enabled: boolean; conditions: ConditionDraft[]; actions: ActionDraft[] };

const emptyDraft = (choices: AutomationChoices): Draft => ({
  name: "",
  event: "message.received",
  enabled: true,
  conditions: [{ field: "message.text", operator: "contains", value: "" }],
  actions: [defaultAction("add_label", choices)],
});

/** "Would have matched 3 of the last 1,000 conversations.", in the reader's language. */
function usePreviewText() {
  const t = useTranslations("settingsAutomations");
  const format = useFormatter();
  return (p: AutomationPreviewOutput) =>
    [
      p.sampled === 0 && !p.cut_short ? t("preview.none") : t("preview.matched", { matched: format.number(p.matched), sampled: format.number(p.sampled) }),
      p.cut_short ? t("preview.cutShort") : "",
    ]
      .filter(Boolean)
      .join(" ");
}

/** How many recent conversations a saved rule matches, asked for when its card shows. */
function RulePreview({ rule }: { rule: Rule }) {
  const [preview, setPreview] = useState<AutomationPreviewOutput>();
  const t = useTranslations("settingsAutomations");
  const previewText = usePreviewText();
  const key = JSON.stringify([rule.event, rule.conditions]);
  useEffect(() => {
    let live = true;
    void requestJson<AutomationPreviewOutput>("POST", "/v1/automations/preview", { event: rule.event, conditions: rule.conditions }).then((r) => {
      if (live && r.ok) setPreview(r.data);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is what the preview depends on
  }, [key]);
  return (
    <p className="text-xs text-slate-500" data-testid="rule-preview">
      {preview ? previewText(preview) : t("preview.counting")}
    </p>
  );
}

/**
 * Settings → Automations: the account's rules in running order, each with how many of the last
 * 1,000 conversations it would have matched; administrators add, change, enable, reorder and
 * delete them.
 */
export function AutomationsBuilder({ rules: initial, choices, canEdit }: { rules: Rule[]; choices: AutomationChoices; canEdit: boolean }) {
  const { items: rules, setItems: setRules, busy, errors, setErrors, message, setMessage, submit, change, remove: removeRow } = useListMutation(initial);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [draftPreview, setDraftPreview] = useState<string>();
  const t = useTranslations("settingsAutomations");
  const { events, describeAction, describeCondition } = useAutomationWords();
  const previewText = usePreviewText();
  const locale = useLocale();
  // An event's name inside a sentence: "When a conversation starts".
  const eventInSentence = (event: Rule["event"]) => events[event].charAt(0).toLocaleLowerCase(locale) + events[event].slice(1);
  const bold = (chunks: React.ReactNode) => <span className="font-medium">{chunks}</span>;

  const sorted = [...rules].sort((a, b) => a.position - b.position);

  async function reload() {
    const all: Rule[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResult<RulePage> = await requestJson<RulePage>("GET", `/v1/automations?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (!page.ok) return;
      all.push(...page.data.data);
      cursor = page.data.pagination.next_cursor;
    } while (cursor);
    setRules(all);
  }

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (!draft) return;
    const body = { name: draft.name, event: draft.event, enabled: draft.enabled, conditions: draft.conditions, actions: actionsOf(draft.actions) };
    const saved = await submit("save", draft.id ? "PATCH" : "POST", draft.id ? `/v1/automations/${draft.id}` : "/v1/automations", body);
    if (!saved) return;
    await reload();
    setDraft(null);
    setDraftPreview(undefined);
    setMessage({ tone: "ok", text: t("saved", { name: saved.name }) });
  }

  async function previewDraft() {
    if (!draft) return;
    setDraftPreview(t("preview.countingShort"));
    const preview = await submit<AutomationPreviewOutput>("preview", "POST", "/v1/automations/preview", { event: draft.event, conditions: draft.conditions });
    setDraftPreview(preview ? previewText(preview) : undefined);
  }

  async function patch(rule: Rule, body: Record<string, unknown>, done: string) {
    if (!(await change(rule.id, "PATCH", `/v1/automations/${rule.id}`, body))) return;
    await reload();
    setMessage({ tone: "ok", text: done });
  }

  async function remove(rule: Rule) {
    if (!(await removeRow(rule, `/v1/automations/${rule.id}`))) return;
    await reload();
    setMessage({ tone: "ok", text: t("deletedRule", { name: rule.name }) });
  }

  const update = (patchDraft: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patchDraft } : d));

  return (
    <div className="flex flex-col gap-6">
      {canEdit && !draft ? (
        <div>
          <Button type="button" className={touchButton} onClick={() => setDraft(emptyDraft(choices))}>
            {t("new")}
          </Button>
        </div>
      ) : null}
      {!canEdit ? <p className="text-sm text-slate-600">{t("adminOnly")}</p> : null}

      {draft ? (
        <Card>
          <form onSubmit={save} aria-label={draft.id ? t("edit") : t("new")} className="flex flex-col gap-4">
            <NameField id="automation-name" value={draft.name} onChange={(name) => update({ name })} error={errors.name} />
            <div className="flex flex-col gap-1">
              <label htmlFor="automation-event" className="text-sm font-medium text-slate-700">
                {t("when")}
              </label>
              <select id="automation-event" className={control} value={draft.event} onChange={(e) => update({ event: e.target.value as Rule["event"] })}>
                {automationEvents.map((event) => (
                  <option key={event} value={event}>
                    {events[event]}
                  </option>
                ))}
              </select>
            </div>
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-700">{t("ifAll")}</legend>
              <ul className="flex flex-col gap-2">
                {draft.conditions.map((condition, i) => (
                  <ConditionRow
                    key={i}
                    index={i}
                    condition={condition}
                    choices={choices}
                    error={errors[`conditions.${i}.value`] ?? errors[`conditions.${i}.field`]}
                    onChange={(c) => update({ conditions: draft.conditions.map((old, j) => (j === i ? c : old)) })}
                    onRemove={() => update({ conditions: draft.conditions.filter((_, j) => j !== i) })}
                  />
                ))}
              </ul>
              {draft.conditions.length === 0 ? <p className="text-xs text-slate-500">{t("noConditions")}</p> : null}
              <div>
                <Button type="button" variant="secondary" className={`${touchButton} px-2.5 py-1`} onClick={() => update({ conditions: [...draft.conditions, { field: "message.text", operator: "contains", value: "" }] })}>
                  {t("addCondition")}
                </Button>
              </div>
            </fieldset>
            <ActionList
              legend={t("thenInOrder")}
              addLabel={t("addAction")}
              actions={draft.actions}
              added="add_note"
              choices={choices}
              errors={errors}
              onChange={(actions) => update({ actions })}
            />
            <label className="flex min-h-11 items-center gap-2 text-sm sm:min-h-0">
              <input type="checkbox" className="h-5 w-5" checked={draft.enabled} onChange={(e) => update({ enabled: e.target.checked })} />
              {t("enabled")}
            </label>
            {draftPreview ? (
              <p role="status" className="text-sm text-slate-700" data-testid="draft-preview">
                {draftPreview}
              </p>
            ) : null}
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button type="submit" className={touchButton} disabled={busy === "save" || !draft.name.trim()}>
                {busy === "save" ? t("saving") : t("save")}
              </Button>
              <Button type="button" variant="secondary" className={touchButton} onClick={() => void previewDraft()}>
                {t("previewMatches")}
              </Button>
              <Button
                type="button"
                variant="ghost"
                className={touchButton}
                onClick={() => {
                  setDraft(null);
                  setErrors({});
                  setDraftPreview(undefined);
                }}
              >
                {t("cancel")}
              </Button>
            </div>
          </form>
        </Card>
      ) : null}

      <StatusNote message={message} />

      <ol aria-label={t("list")} className="flex flex-col gap-3">
        {sorted.length === 0 ? <li className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">{t("empty")}</li> : null}
        {sorted.map((rule, i) => (
          <li key={rule.id} data-testid="automation-rule">
            <Card className="flex flex-col gap-2">
              <div className="flex flex-wrap items-center gap-2">
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{i + 1}</span>
                <h3 className="min-w-0 flex-1 break-words font-medium text-slate-900" data-user-content>
                  {rule.name}
                </h3>
                <span className={`rounded-full px-2 py-0.5 text-xs ${rule.enabled ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-500"}`}>{rule.enabled ? t("on") : t("off")}</span>
              </div>
              <p className="break-words text-sm text-slate-700">
                {t.rich("rule.when", { b: bold, event: eventInSentence(rule.event) })}
                {rule.conditions.length ? (
                  <>
                    {t.rich("rule.if", { b: bold })}
                    {joinNodes(
                      rule.conditions.map((c) => describeCondition(c, choices)),
                      <> {t("and")} </>,
                    )}
                  </>
                ) : null}
                {t.rich("rule.then", { b: bold })}
                {joinNodes(
                  rule.actions.map((a) => describeAction(a, choices)),
                  ", ",
                )}
                .
              </p>
              <RulePreview rule={rule} />
              {canEdit ? (
                <div className="flex flex-wrap gap-2">
                  <Button
                    type="button"
                    variant="secondary"
                    className={`${touchButton} px-2.5 py-1`}
                    disabled={busy === rule.id}
                    onClick={() => void patch(rule, { enabled: !rule.enabled }, rule.enabled ? t("turnedOff", { name: rule.name }) : t("turnedOn", { name: rule.name }))}
                  >
                    {rule.enabled ? t("turnOff") : t("turnOn")}
                  </Button>
                  <Button type="button" variant="secondary" className={`${touchButton} px-2.5 py-1`} disabled={i === 0 || busy === rule.id} aria-label={t("moveUp", { name: rule.name })} onClick={() => void patch(rule, { position: i - 1 }, t("movedUp", { name: rule.name }))}>
                    {t("up")}
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    className={`${touchButton} px-2.5 py-1`}
                    disabled={i === sorted.length - 1 || busy === rule.id}
                    aria-label={t("moveDown", { name: rule.name })}
                    onClick={() => void patch(rule, { position: i + 1 }, t("movedDown", { name: rule.name }))}
                  >
                    {t("down")}
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    className={`${touchButton} px-2.5 py-1`}
                    onClick={() => {
                      setErrors({});
                      setDraftPreview(undefined);
                      setDraft({ id: rule.id, name: rule.name, event: rule.event, enabled: rule.enabled, conditions: rule.conditions as ConditionDraft[], actions: rule.actions as ActionDraft[] });
                    }}
                  >
                    {t("editRule")}
                  </Button>
                  <Button type="button" variant="ghost" className={`${touchButton} px-2.5 py-1 text-red-700`} disabled={busy === rule.id} aria-label={t("deleteNamed", { name: rule.name })} onClick={() => void remove(rule)}>
                    {t("delete")}
                  </Button>
                </div>
              ) : null}
            </Card>
          </li>
        ))}
      </ol>
    </div>
  );
}
