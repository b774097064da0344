"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { StatusNote } from "@/components/ui/status-note";
import type { MacroOutput } from "@/lib/automations/schemas";
import { type ActionDraft, ActionList, actionsOf, type AutomationChoices, control, defaultAction, joinNodes, NameField, touchButton, useAutomationWords } from "./automation-parts";
import { useListMutation } from "./use-list-mutation";
import { SettingsList } from "./settings-list";

type Draft = { id?: string; name: string; visibility: "personal" | "account"; actions: ActionDraft[] };

/** One macro: its name, who sees it and what it does; its owner (or an administrator, for a shared one) edits or deletes it. */
function MacroRow({
  macro,
  choices,
  canChange,
  busy,
  onEdit,
  onRemove,
}: {
  macro: MacroOutput;
  choices: AutomationChoices;
  canChange: boolean;
  busy: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const t = useTranslations("settingsMacros");
  const { describeAction } = useAutomationWords();
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center" data-testid="macro">
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium text-slate-900">
          <span data-user-content>{macro.name}</span> <span className="ms-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-normal text-slate-600">{macro.visibility === "account" ? t("everyone") : t("personal")}</span>
        </p>
        <p className="break-words text-sm text-slate-600">{joinNodes(
            macro.actions.map((a) => describeAction(a, choices)),
            ", ",
          )}</p>
      </div>
      {canChange ? (
        <span className="flex gap-2">
          <Button type="button" variant="secondary" className={`${touchButton} px-2.5 py-1`} onClick={onEdit}>
            {t("editMacro")}
          </Button>
          <Button type="button" variant="ghost" className={`${touchButton} px-2.5 py-1 text-red-700`} disabled={busy} aria-label={t("deleteNamed", { name: macro.name })} onClick={onRemove}>
            {t("delete")}
          </Button>
        </span>
      ) : null}
    </li>
  );
}

/**
 * Settings → Macros: everyone keeps personal macros; administrators also share macros with the
 * whole account. A macro runs from a conversation's Macros menu.
 */
export function MacrosManager({ macros: initial, choices, me }: { macros: MacroOutput[]; choices: AutomationChoices; me: { id: string; role: "admin" | "agent" } }) {
  const { items: macros, setItems: setMacros, busy, errors, message, setMessage, submit, remove: removeRow } = useListMutation(initial);
  const [draft, setDraft] = useState<Draft | null>(null);
  const t = useTranslations("settingsMacros");

  const canChange = (macro: MacroOutput) => macro.owner_id === me.id || (macro.visibility === "account" && me.role === "admin");
  const update = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (!draft) return;
    const body = { name: draft.name, visibility: draft.visibility, actions: actionsOf(draft.actions) };
    const saved = await submit("save", draft.id ? "PATCH" : "POST", draft.id ? `/v1/macros/${draft.id}` : "/v1/macros", body);
    if (!saved) return;
    setMacros((list) => (draft.id ? list.map((m) => (m.id === saved.id ? saved : m)) : [...list, saved]));
    setDraft(null);
    setMessage({ tone: "ok", text: t("saved", { name: saved.name }) });
  }

  async function remove(macro: MacroOutput) {
    if (await removeRow(macro, `/v1/macros/${macro.id}`)) setMessage({ tone: "ok", text: t("deleted", { name: macro.name }) });
  }

  return (
    <div className="flex flex-col gap-6">
      {!draft ? (
        <div>
          <Button type="button" className={touchButton} onClick={() => setDraft({ name: "", visibility: "personal", actions: [defaultAction("add_label", choices)] })}>
            {t("new")}
          </Button>
        </div>
      ) : (
        <Card>
          <form onSubmit={save} aria-label={draft.id ? t("edit") : t("new")} className="flex flex-col gap-4">
            <NameField id="macro-name" value={draft.name} onChange={(name) => update({ name })} error={errors.name} />
            {me.role === "admin" ? (
              <div className="flex flex-col gap-1">
                <label htmlFor="macro-visibility" className="text-sm font-medium text-slate-700">
                  {t("visibility")}
                </label>
                <select id="macro-visibility" className={control} value={draft.visibility} onChange={(e) => update({ visibility: e.target.value as Draft["visibility"] })}>
                  <option value="personal">{t("onlyMe")}</option>
                  <option value="account">{t("everyoneInAccount")}</option>
                </select>
              </div>
            ) : null}
            <ActionList
              legend={t("actions")}
              addLabel={t("addAction")}
              actions={draft.actions}
              added="close"
              choices={choices}
              forMacro
              errors={errors}
              onChange={(actions) => update({ actions })}
            />
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button type="submit" className={touchButton} disabled={busy === "save" || !draft.name.trim()}>
                {busy === "save" ? t("saving") : t("save")}
              </Button>
              <Button type="button" variant="ghost" className={touchButton} onClick={() => setDraft(null)}>
                {t("cancel")}
              </Button>
            </div>
          </form>
        </Card>
      )}
      <StatusNote message={message} />
      <SettingsList label={t("list")} empty={t("empty")} items={macros}>
        {(macro) => (
          <MacroRow
            key={macro.id}
            macro={macro}
            choices={choices}
            canChange={canChange(macro)}
            busy={busy === macro.id}
            onEdit={() => setDraft({ id: macro.id, name: macro.name, visibility: macro.visibility, actions: macro.actions as ActionDraft[] })}
            onRemove={() => void remove(macro)}
          />
        )}
      </SettingsList>
    </div>
  );
}
