"use client";

import { useTranslations } from "next-intl";
import { useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { type Campaign, type Label, type Preview, type Template } from "./types";
import { useFormatCost } from "./use-format-cost";

type VariableChoice = { kind: "contact.name" | "contact.phone" | "attribute" | "literal"; text: string };

const inputClass = "min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100";

const placeholdersOf = (text: string) => new Set(text.match(/\{\{\d+\}\}/g) ?? []).size;

/** Create a campaign: template and its variables, audience with its preview and cost, then send now or schedule. */
export function NewCampaignForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (id: string) => void }) {
  const [templates, setTemplates] = useState<Template[]>([]);
  const [labels, setLabels] = useState<Label[]>([]);
  const [name, setName] = useState("");
  const [templateKey, setTemplateKey] = useState("");
  const [variables, setVariables] = useState<VariableChoice[]>([]);
  const [labelIds, setLabelIds] = useState<string[]>([]);
  const [attrKey, setAttrKey] = useState("");
  const [attrValue, setAttrValue] = useState("");
  const [when, setWhen] = useState<"now" | "later">("now");
  const [sendAt, setSendAt] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const t = useTranslations("campaigns.form");
  const errorMessage = useApiErrorMessage();
  const formatCost = useFormatCost();

  useEffect(() => {
    void requestJson<{ data: Template[] }>("GET", "/v1/templates?limit=100").then((res) => res.ok && setTemplates(res.data.data.filter((tpl) => tpl.status === "APPROVED")));
    void requestJson<{ data: Label[] }>("GET", "/v1/labels?limit=100").then((res) => res.ok && setLabels(res.data.data));
  }, []);

  const template = templates.find((tpl) => `${tpl.name}:${tpl.language}` === templateKey);
  function chooseTemplate(key: string) {
    setTemplateKey(key);
    const chosen = templates.find((tpl) => `${tpl.name}:${tpl.language}` === key);
    const count = chosen ? placeholdersOf(chosen.components.body.text) : 0;
    setVariables((current) => Array.from({ length: count }, (_, i) => current[i] ?? { kind: i === 0 ? "contact.name" : "literal", text: "" }));
  }

  const audience = useMemo(() => {
    const a: Campaign["audience"] = {};
    if (labelIds.length) a.label_ids = labelIds;
    if (attrKey.trim()) a.attributes = { [attrKey.trim()]: attrValue };
    return a;
  }, [labelIds, attrKey, attrValue]);
  const hasAudience = Boolean(audience.label_ids || audience.attributes);

  // The preview follows the audience and template as they are chosen.
  useEffect(() => {
    if (!hasAudience) return;
    const timer = setTimeout(async () => {
      const res = await requestJson<Preview>("POST", "/v1/campaigns/audience-preview", { audience, ...(template ? { template: { name: template.name, language: template.language } } : {}) });
      if (res.ok) setPreview(res.data);
      else setPreview(null);
    }, 300);
    return () => clearTimeout(timer);
  }, [audience, hasAudience, template]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setFieldErrors({});
    if (!template) return setError(t("needTemplate"));
    if (!hasAudience) return setError(t("needAudience"));
    setBusy(true);
    const body = {
      name,
      template: {
        name: template.name,
        language: template.language,
        variables: variables.map((v) =>
          v.kind === "attribute" ? { source: `contact.attributes.${v.text.trim()}` } : v.kind === "literal" ? { source: "literal", value: v.text } : { source: v.kind },
        ),
      },
      audience,
    };
    const created = await requestJson<Campaign>("POST", "/v1/campaigns", body);
    if (!created.ok) {
      setBusy(false);
      setFieldErrors(created.fieldErrors);
      return setError(errorMessage(created));
    }
    const scheduled = await requestJson<Campaign>("POST", `/v1/campaigns/${created.data.id}/schedule`, when === "later" && sendAt ? { send_at: new Date(sendAt).toISOString() } : {});
    setBusy(false);
    if (!scheduled.ok) return setError(t("notScheduled", { reason: errorMessage(scheduled) }));
    onCreated(created.data.id);
  }

  return (
    <Card className="p-4 sm:p-6">
      <form onSubmit={submit} className="flex flex-col gap-5" aria-label={t("title")}>
        <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
        {error ? <Alert>{error}</Alert> : null}
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          {t("name")}
          <input className={inputClass} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder={t("namePlaceholder")} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          {t("template")}
          <select className={inputClass} value={templateKey} onChange={(e) => chooseTemplate(e.target.value)} required>
            <option value="">{t("chooseTemplate")}</option>
            {templates.map((tpl) => (
              <option key={tpl.id} value={`${tpl.name}:${tpl.language}`}>
                {t("templateOption", { name: tpl.name, language: tpl.language, category: tpl.category.toLowerCase() })}
              </option>
            ))}
          </select>
        </label>
        {template ? <p className="rounded-md bg-slate-50 p-3 text-sm whitespace-pre-wrap text-slate-700" data-user-content>{template.components.body.text}</p> : null}
        {variables.map((v, i) => (
          <fieldset key={i} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <label className="flex flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
              {t("variable", { number: `{{${i + 1}}}` })}
              <select className={inputClass} value={v.kind} onChange={(e) => setVariables(variables.map((x, j) => (j === i ? { ...x, kind: e.target.value as VariableChoice["kind"] } : x)))}>
                <option value="contact.name">{t("contactName")}</option>
                <option value="contact.phone">{t("contactPhone")}</option>
                <option value="attribute">{t("attributeChoice")}</option>
                <option value="literal">{t("literalChoice")}</option>
              </select>
            </label>
            {v.kind === "attribute" || v.kind === "literal" ? (
              <label className="flex flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
                {v.kind === "attribute" ? t("attributeName") : t("text")}
                <input
                  className={inputClass}
                  value={v.text}
                  required
                  onChange={(e) => setVariables(variables.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))}
                  aria-invalid={fieldErrors[`template.variables.${i}.source`] ? true : undefined}
                />
                {fieldErrors[`template.variables.${i}.source`] ? <span className="text-xs text-red-600">{fieldErrors[`template.variables.${i}.source`]}</span> : null}
              </label>
            ) : null}
          </fieldset>
        ))}

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t("audience")}</legend>
          {labels.length ? (
            <div className="flex flex-wrap gap-2" role="group" aria-label={t("labels")}>
              {labels.map((l) => {
                const on = labelIds.includes(l.id);
                return (
                  <button
                    key={l.id}
                    type="button"
                    aria-pressed={on}
                    onClick={() => setLabelIds(on ? labelIds.filter((id) => id !== l.id) : [...labelIds, l.id])}
                    className={`min-h-11 rounded-full border px-3 text-sm ${on ? "border-brand-600 bg-brand-50 text-brand-800" : "border-slate-300 text-slate-700"}`}
                  >
                    <span className="me-1.5 inline-block h-2.5 w-2.5 rounded-full" style={{ backgroundColor: l.color }} />
                    <span data-user-content>{l.name}</span>
                  </button>
                );
              })}
            </div>
          ) : null}
          <div className="flex flex-col gap-2 sm:flex-row">
            <label className="flex flex-1 flex-col gap-1 text-sm text-slate-700">
              {t("attribute")}
              <input className={inputClass} value={attrKey} onChange={(e) => setAttrKey(e.target.value)} placeholder={t("attributePlaceholder")} />
            </label>
            <label className="flex flex-1 flex-col gap-1 text-sm text-slate-700">
              {t("equals")}
              <input className={inputClass} value={attrValue} onChange={(e) => setAttrValue(e.target.value)} placeholder={t("valuePlaceholder")} />
            </label>
          </div>
        </fieldset>

        {preview && hasAudience ? (
          <section aria-label={t("preview")} className="rounded-md border border-slate-200 p-3 text-sm">
            <p className="font-medium text-slate-900">
              {t("willGet", { eligible: preview.eligible, count: preview.count })}
            </p>
            <p className="text-slate-600">
              {t("skipped", { noConsent: preview.skipped.no_consent, optedOut: preview.skipped.opted_out, blocked: preview.skipped.blocked })}
            </p>
            <p className="mt-1 text-slate-800">{t("cost", { cost: formatCost(preview.estimated_cost) })}</p>
            {preview.sample.length ? (
              <ul className="mt-2 grid gap-1 sm:grid-cols-2">
                {preview.sample.map((s) => (
                  <li key={s.id} className={`truncate ${s.eligible ? "text-slate-700" : "text-slate-400 line-through"}`}>
                    <span data-user-content>{s.name ?? "—"}</span> · <span translate="no">+{s.phone}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        ) : null}

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t("when")}</legend>
          <div className="flex flex-wrap gap-4">
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input type="radio" name="when" checked={when === "now"} onChange={() => setWhen("now")} className="h-5 w-5" /> {t("sendNow")}
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input type="radio" name="when" checked={when === "later"} onChange={() => setWhen("later")} className="h-5 w-5" /> {t("schedule")}
            </label>
          </div>
          {when === "later" ? <input type="datetime-local" aria-label={t("sendAt")} className={inputClass} value={sendAt} onChange={(e) => setSendAt(e.target.value)} required /> : null}
        </fieldset>

        <div className="flex flex-wrap gap-3">
          <Button type="submit" className="min-h-11" disabled={busy}>
            {busy ? t("starting") : when === "now" ? t("sendNow") : t("schedule")}
          </Button>
          <Button type="button" variant="secondary" className="min-h-11" onClick={onCancel}>
            {t("cancel")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
