"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { estimatePrice, formatPrice } from "@/lib/pricing/estimate";
import type { PricingOutput } from "@/lib/pricing/schemas";
import type { TemplateOutput } from "@/lib/templates/schemas";

export type TemplateItem = Pick<TemplateOutput, "id" | "name" | "language" | "status" | "variables" | "category" | "components">;
type Place = { latitude: number; longitude: number; name?: string; address?: string };

export type TemplateChoice = {
  name: string;
  language: string;
  variables: string[];
  header?: { location: Place };
  buttons?: { index: number; value: string }[];
};

/** The buttons a send can give a value: a URL ending in {{1}} and a code to copy. */
const valueButtons = (template: TemplateItem) =>
  (template.components.buttons ?? []).flatMap((button, index) =>
    (button.type === "URL" && /\{\{\s*1\s*\}\}/.test(button.url ?? "")) || button.type === "COPY_CODE" ? [{ index, button }] : [],
  );

/** The account's price table (loaded once per picker); null until loaded or when it cannot be read. */
function usePriceTable(active: boolean) {
  const [table, setTable] = useState<PricingOutput | null>(null);
  useEffect(() => {
    if (!active) return;
    let current = true;
    void requestJson<PricingOutput>("GET", "/v1/config/pricing").then((result) => {
      if (current && result.ok) setTable(result.data);
    });
    return () => {
      current = false;
    };
  }, [active]);
  return table;
}

/** The account's approved templates (loaded once per picker). */
function useApprovedTemplates(active: boolean) {
  const [state, setState] = useState<{ status: "loading" | "ready" | "error"; templates: TemplateItem[]; message?: string }>({ status: "loading", templates: [] });
  const apiError = useApiErrorMessage();
  useEffect(() => {
    if (!active) return;
    let current = true;
    void requestJson<{ data: TemplateItem[] }>("GET", "/v1/templates?limit=100").then((result) => {
      if (!current) return;
      setState(result.ok ? { status: "ready", templates: result.data.data.filter((t) => t.status === "APPROVED") } : { status: "error", templates: [], message: apiError(result) });
    });
    return () => {
      current = false;
    };
  }, [active, apiError]);
  return state;
}

/** The template picker's state: the templates load the first time the dialog opens. */
export function useTemplatePicker() {
  const [opened, setOpened] = useState(false);
  const [choice, setChoice] = useState<TemplateChoice | null>(null);
  const templates = useApprovedTemplates(opened);
  return { templates, choice, setChoice, load: () => setOpened(true) };
}

const render = (text: string, values: string[]) => text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => values[Number(n) - 1] || whole);

/** Choose an approved template and fill its variables and buttons; shows its category, what it costs and the message as the customer will see it. */
export function TemplateFields({
  templates,
  status,
  loadError,
  errors,
  onChange,
  to,
}: {
  templates: TemplateItem[];
  status: "loading" | "ready" | "error";
  loadError?: string;
  errors: Record<string, string>;
  onChange: (choice: TemplateChoice | null) => void;
  /** The recipient's number (digits): the estimate is for their country. */
  to?: string;
}) {
  const t = useTranslations("inboxDialogs.template");
  const uid = useId();
  const [selectedId, setSelectedId] = useState("");
  const [values, setValues] = useState<string[]>([]);
  const [buttonValues, setButtonValues] = useState<Record<number, string>>({});
  const [place, setPlace] = useState({ latitude: "", longitude: "", name: "" });
  const prices = usePriceTable(status === "ready");
  const selected = templates.find((t) => t.id === selectedId);

  function update(id: string, next: string[], nextButtons = buttonValues, nextPlace = place) {
    setSelectedId(id);
    setValues(next);
    setButtonValues(nextButtons);
    setPlace(nextPlace);
    const template = templates.find((t) => t.id === id);
    if (!template) return onChange(null);
    const needsPlace = template.components.header?.format === "LOCATION" && !template.components.header.location;
    const buttons = valueButtons(template).flatMap(({ index }) => (nextButtons[index]?.trim() ? [{ index, value: nextButtons[index].trim() }] : []));
    onChange({
      name: template.name,
      language: template.language,
      variables: next.slice(0, template.variables),
      ...(buttons.length ? { buttons } : {}),
      ...(needsPlace
        ? { header: { location: { latitude: Number(nextPlace.latitude), longitude: Number(nextPlace.longitude), ...(nextPlace.name.trim() ? { name: nextPlace.name.trim() } : {}) } } }
        : {}),
    });
  }

  function choose(id: string) {
    const template = templates.find((t) => t.id === id);
    const defaults: Record<number, string> = {};
    if (template) for (const { index, button } of valueButtons(template)) defaults[index] = button.example ?? "";
    update(id, Array.from({ length: template?.variables ?? 0 }, () => ""), defaults, { latitude: "", longitude: "", name: "" });
  }

  if (status === "loading") return <p className="text-sm text-slate-500">{t("loading")}</p>;
  if (status === "error") return <p role="alert" className="text-sm text-red-700">{loadError ?? t("loadError")}</p>;
  if (templates.length === 0) {
    return (
      <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {t.rich("none", {
          link: (chunks) => (
            <a className="underline" href="/settings/templates">
              {chunks}
            </a>
          ),
        })}
      </p>
    );
  }
  const header = selected?.components.header;
  const estimate = selected && prices && to ? estimatePrice({ table: prices, to, category: selected.category }) : null;
  const categoryName = selected ? { MARKETING: t("category.marketing"), UTILITY: t("category.utility"), AUTHENTICATION: t("category.authentication") }[selected.category] : "";
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${uid}-choice`} className="text-sm font-medium text-slate-700">
          {t("field")}
        </label>
        <select id={`${uid}-choice`} value={selectedId} onChange={(e) => choose(e.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
          <option value="">{t("choose")}</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
        {errors["template.name"] ? <p className="text-xs text-red-600">{errors["template.name"]}</p> : null}
        {selected ? (
          <p className="text-xs text-slate-600" data-testid="template-estimate" title={t("estimateSource")}>
            {!prices || !to ? categoryName : estimate ? t("estimate", { category: categoryName, price: formatPrice(estimate.price), currency: estimate.currency }) : t("noPrice", { category: categoryName })}
          </p>
        ) : null}
      </div>
      {selected
        ? values.map((value, index) => (
            <div key={index} className="flex flex-col gap-1">
              <label htmlFor={`${uid}-var-${index}`} className="text-sm font-medium text-slate-700">
                {t("valueFor", { placeholder: `{{${index + 1}}}` })}
              </label>
              <input
                id={`${uid}-var-${index}`}
                value={value}
                onChange={(e) => update(selectedId, values.map((v, i) => (i === index ? e.target.value : v)))}
                className="rounded-md border border-slate-300 px-3 py-2 text-sm"
              />
            </div>
          ))
        : null}
      {errors["template.variables"] ? <p className="text-xs text-red-600">{errors["template.variables"]}</p> : null}
      {selected && header?.format === "LOCATION" && !header.location ? (
        <fieldset className="grid grid-cols-2 gap-2">
          <legend className="col-span-2 text-sm font-medium text-slate-700">{t("placeToShow")}</legend>
          {(["latitude", "longitude"] as const).map((key) => (
            <input key={key} aria-label={t(key)} placeholder={t(key)} inputMode="decimal" value={place[key]} onChange={(e) => update(selectedId, values, buttonValues, { ...place, [key]: e.target.value })} className="rounded-md border border-slate-300 px-3 py-2 text-sm" />
          ))}
          <input aria-label={t("placeName")} placeholder={t("placeNameOptional")} value={place.name} onChange={(e) => update(selectedId, values, buttonValues, { ...place, name: e.target.value })} className="col-span-2 rounded-md border border-slate-300 px-3 py-2 text-sm" />
          {errors["template.header.location"] ? <p className="col-span-2 text-xs text-red-600">{errors["template.header.location"]}</p> : null}
        </fieldset>
      ) : null}
      {selected
        ? valueButtons(selected).map(({ index, button }) => (
            <div key={index} className="flex flex-col gap-1">
              <label htmlFor={`${uid}-button-${index}`} className="text-sm font-medium text-slate-700">
                {button.type === "COPY_CODE" ? t("codeToCopy") : t("urlEnd", { button: button.text ?? "" })}
              </label>
              <input
                id={`${uid}-button-${index}`}
                value={buttonValues[index] ?? ""}
                maxLength={button.type === "COPY_CODE" ? 15 : 2000}
                onChange={(e) => update(selectedId, values, { ...buttonValues, [index]: e.target.value })}
                className="rounded-md border border-slate-300 px-3 py-2 text-sm"
              />
            </div>
          ))
        : null}
      {errors["template.buttons"] ? <p className="text-xs text-red-600">{errors["template.buttons"]}</p> : null}
      {selected ? (
        <div className="rounded-lg bg-brand-50 px-3 py-2 text-sm" data-testid="template-preview">
          <p className="mb-1 text-xs font-medium text-slate-500">{t("preview")}</p>
          {header?.format === "TEXT" && header.text ? <p className="font-semibold">{header.text}</p> : null}
          {header && header.format !== "TEXT" ? (
            <p className="mb-1 rounded bg-white/70 px-2 py-1 text-xs text-slate-600">
              {header.format === "LOCATION"
                ? t("previewLocation", { place: header.location?.name ?? (place.name || t("thePlaceYouGive")) })
                : t(header.format === "IMAGE" ? "previewImage" : header.format === "VIDEO" ? "previewVideo" : "previewDocument", { file: header.media?.filename ?? t("theTemplatesFile") })}
            </p>
          ) : null}
          <p className="whitespace-pre-wrap">{render(selected.components.body.text, values)}</p>
          {selected.components.footer ? <p className="text-xs text-slate-500">{selected.components.footer.text}</p> : null}
          {selected.components.buttons?.length ? (
            <ul className="mt-2 flex flex-col gap-1">
              {selected.components.buttons.map((button, index) => (
                <li key={index} className="rounded-md border border-brand-200 bg-white/80 px-3 py-1 text-center text-xs font-medium text-brand-700">
                  {button.type === "COPY_CODE" ? t("copyCode", { code: buttonValues[index] ?? "" }) : button.text}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
