"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { LabelChip } from "@/components/inbox/label-chips";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { StatusNote } from "@/components/ui/status-note";
import type { LabelOutput } from "@/lib/labels/schemas";
import { useListMutation } from "./use-list-mutation";
import { SaveButton } from "./setting-save";
import { SettingsList } from "./settings-list";

type Label = LabelOutput;

const palette = ["#16a34a", "#2563eb", "#dc2626", "#d97706", "#7c3aed", "#db2777", "#0891b2", "#475569"];

/** Create and delete labels (administrators); everyone sees the list. */
export function LabelsManager({ labels: initial, canEdit }: { labels: Label[]; canEdit: boolean }) {
  const { items: labels, setItems: setLabels, busy, errors, message, setMessage, submit, remove: removeRow } = useListMutation(initial);
  const [name, setName] = useState("");
  const [color, setColor] = useState(palette[0]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const t = useTranslations("settingsLabels");

  async function create(e: React.FormEvent) {
    e.preventDefault();
    const created = await submit("create", "POST", "/v1/labels", { name, color }, t("duplicate"));
    if (!created) return;
    setLabels((list) => [...list, created]);
    setName("");
    setMessage({ tone: "ok", text: t("created", { name: created.name }) });
  }

  async function remove(label: Label) {
    const removed = await removeRow(label, `/v1/labels/${label.id}`);
    setConfirming(null);
    if (removed) setMessage({ tone: "ok", text: t("deleted", { name: label.name }) });
  }

  return (
    <div className="flex flex-col gap-6">
      {canEdit ? (
        <Card>
          <form onSubmit={create} className="flex flex-col gap-4 sm:flex-row sm:items-end" aria-label={t("newLabel")}>
            <Field label={t("name")} name="name" value={name} maxLength={40} required onChange={(e) => setName(e.target.value)} error={errors.name} className="flex-1" />
            <fieldset className="flex flex-col gap-1">
              <legend className="mb-1 text-sm font-medium text-slate-700">{t("colour")}</legend>
              <div className="flex flex-wrap items-center gap-1.5">
                {palette.map((c) => (
                  <button
                    key={c}
                    type="button"
                    aria-label={t("colourValue", { colour: c })}
                    aria-pressed={color === c}
                    onClick={() => setColor(c)}
                    className={`h-7 w-7 rounded-full ring-offset-2 ${color === c ? "ring-2 ring-slate-900" : ""}`}
                    style={{ backgroundColor: c }}
                  />
                ))}
                <input type="color" aria-label={t("customColour")} value={color} onChange={(e) => setColor(e.target.value)} className="h-7 w-9 cursor-pointer rounded border border-slate-300" />
              </div>
              {errors.color ? <p className="text-xs text-red-600">{errors.color}</p> : null}
            </fieldset>
            <SaveButton busy={busy === "create"} disabled={!name.trim()} label={t("create")} busyLabel={t("creating")} className="" />
          </form>
        </Card>
      ) : (
        <p className="text-sm text-slate-600">{t("adminOnly")}</p>
      )}
      <StatusNote message={message} />
      <SettingsList label={t("list")} empty={t("empty")} items={labels}>
        {(label) => (
          <li key={label.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <span data-user-content>
              <LabelChip label={label} />
            </span>
            <span className="text-xs text-slate-500" translate="no">
              {label.color}
            </span>
            {canEdit ? (
              <span className="ms-auto flex items-center gap-2">
                {confirming === label.id ? (
                  <>
                    <span className="text-sm text-slate-700">{t("confirmDelete")}</span>
                    <Button type="button" variant="danger" className="px-2.5 py-1" disabled={busy === label.id} onClick={() => void remove(label)}>
                      {busy === label.id ? t("deleting") : t("delete")}
                    </Button>
                    <Button type="button" variant="ghost" className="px-2.5 py-1" onClick={() => setConfirming(null)}>
                      {t("cancel")}
                    </Button>
                  </>
                ) : (
                  <Button type="button" variant="secondary" className="px-2.5 py-1" onClick={() => setConfirming(label.id)} aria-label={t("deleteLabel", { name: label.name })}>
                    {t("delete")}
                  </Button>
                )}
              </span>
            ) : null}
          </li>
        )}
      </SettingsList>
    </div>
  );
}
