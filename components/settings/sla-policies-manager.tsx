"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { StatusNote } from "@/components/ui/status-note";
import type { SlaPolicyOutput } from "@/lib/sla/schemas";
import { useListMutation } from "./use-list-mutation";
import { CreateForm, SettingsList } from "./settings-list";

type Policy = SlaPolicyOutput;

const toSeconds = (minutes: string) => (minutes.trim() ? Math.round(Number(minutes) * 60) : null);

/** One policy: its targets, whether new conversations get it, and (for administrators) the buttons that change that or delete it. */
function PolicyRow({ policy: p, canEdit, busy, onDefault, onRemove }: { policy: Policy; canEdit: boolean; busy: boolean; onDefault: () => void; onRemove: () => void }) {
  const t = useTranslations("settingsTeams.sla");
  const minutesText = (seconds: number | null) =>
    seconds === null ? "—" : seconds % 3600 === 0 ? t("hours", { value: seconds / 3600 }) : t("minutes", { value: Math.round(seconds / 60) });
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm">
      <span className="font-medium" data-user-content>
        {p.name}
      </span>
      {p.default ? <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">{t("default")}</span> : null}
      <span className="text-slate-600">
        {t("targets", { first: minutesText(p.first_response_s), next: minutesText(p.next_response_s), resolve: minutesText(p.resolution_s) })}
        {p.business_hours_only ? t("openingHours") : t("aroundTheClock")}
      </span>
      {canEdit ? (
        <span className="ms-auto flex gap-2">
          <Button type="button" variant="secondary" className="min-h-11 px-2.5 py-1 md:min-h-0" disabled={busy} onClick={onDefault}>
            {p.default ? t("stopDefault") : t("applyDefault")}
          </Button>
          <Button type="button" variant="danger" className="min-h-11 px-2.5 py-1 md:min-h-0" disabled={busy} onClick={onRemove} aria-label={t("deletePolicy", { name: p.name })}>
            {t("delete")}
          </Button>
        </span>
      ) : null}
    </li>
  );
}

/** Settings → Teams → SLA policies: targets in minutes, business hours or not, one default. */
export function SlaPoliciesManager({ policies: initial, canEdit }: { policies: Policy[]; canEdit: boolean }) {
  const { items: policies, setItems: setPolicies, busy, errors, message, setMessage, submit, change, remove: removeRow } = useListMutation(initial);
  const [name, setName] = useState("");
  const [first, setFirst] = useState("");
  const [next, setNext] = useState("");
  const [resolution, setResolution] = useState("");
  const [businessHours, setBusinessHours] = useState(true);
  const [isDefault, setIsDefault] = useState(false);
  const t = useTranslations("settingsTeams.sla");
  const markDefault = (list: Policy[], id: string | null) => list.map((p) => ({ ...p, default: p.id === id }));

  async function create(e: React.FormEvent) {
    e.preventDefault();
    const body = {
      name,
      first_response_s: toSeconds(first),
      next_response_s: toSeconds(next),
      resolution_s: toSeconds(resolution),
      business_hours_only: businessHours,
      default: isDefault,
    };
    const created = await submit("create", "POST", "/v1/sla-policies", body, t("duplicate"));
    if (!created) return;
    setPolicies((list) => (created.default ? markDefault([...list, created], created.id) : [...list, created]));
    setName("");
    setFirst("");
    setNext("");
    setResolution("");
    setMessage({ tone: "ok", text: t("created", { name: created.name }) });
  }

  async function setDefault(policy: Policy, value: boolean) {
    if (await change(policy.id, "PATCH", `/v1/sla-policies/${policy.id}`, { default: value })) setPolicies((list) => markDefault(list, value ? policy.id : null));
  }

  const remove = (policy: Policy) => removeRow(policy, `/v1/sla-policies/${policy.id}`);

  const minutesField = (label: string, fieldName: string, value: string, set: (v: string) => void, error?: string) => (
    <Field label={label} name={fieldName} type="number" min={1} inputMode="numeric" placeholder={t("noTarget")} value={value} onChange={(e) => set(e.target.value)} error={error} className="flex-1" />
  );

  return (
    <div className="flex flex-col gap-4">
      {canEdit ? (
        <CreateForm label={t("new")} onSubmit={create} busy={busy === "create"} canSubmit={!!name.trim()} createLabel={t("create")} creatingLabel={t("creating")}>
          <Field label={t("name")} name="sla-name" value={name} maxLength={60} required onChange={(e) => setName(e.target.value)} error={errors.name} />
          <div className="flex flex-col gap-3 sm:flex-row">
            {minutesField(t("first"), "sla-first", first, setFirst, errors.first_response_s)}
            {minutesField(t("next"), "sla-next", next, setNext, errors.next_response_s)}
            {minutesField(t("resolution"), "sla-resolution", resolution, setResolution, errors.resolution_s)}
          </div>
          <label className="flex min-h-11 items-center gap-2 text-sm md:min-h-0">
            <input type="checkbox" checked={businessHours} onChange={(e) => setBusinessHours(e.target.checked)} className="h-5 w-5 md:h-4 md:w-4" />
            {t("businessHours")}
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm md:min-h-0">
            <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} className="h-5 w-5 md:h-4 md:w-4" />
            {t("applyToNew")}
          </label>
        </CreateForm>
      ) : null}
      <StatusNote message={message} />
      <SettingsList label={t("list")} empty={t("empty")} items={policies}>
        {(p) => <PolicyRow key={p.id} policy={p} canEdit={canEdit} busy={busy === p.id} onDefault={() => void setDefault(p, !p.default)} onRemove={() => void remove(p)} />}
      </SettingsList>
    </div>
  );
}
