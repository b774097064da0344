"use client";

import { useEffect, useId, useState } from "react";
import { requestJson } from "@/lib/client/api";

export type TemplateItem = {
  id: string;
  name: string;
  language: string;
  status: "PENDING" | "APPROVED" | "REJECTED";
  variables: number;
  components: { header?: { text: string }; body: { text: string }; footer?: { text: string }; buttons?: { text: string }[] };
};

export type TemplateChoice = { name: string; language: string; variables: string[] };

/** The account's approved templates (loaded once per picker). */
export function useApprovedTemplates(active: boolean) {
  const [state, setState] = useState<{ status: "loading" | "ready" | "error"; templates: TemplateItem[]; message?: string }>({ status: "loading", templates: [] });
  useEffect(() => {
    if (!active) return;
    let current = true;
    void requestJson<{ data: TemplateItem[] }>("GET", "/v1/templates?limit=100").then((result) => {
      if (!current) return;
      setState(result.ok ? { status: "ready", templates: result.data.data.filter((t) => t.status === "APPROVED") } : { status: "error", templates: [], message: result.message });
    });
    return () => {
      current = false;
    };
  }, [active]);
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

/** Choose an approved template and fill its variables; shows the message as the customer will read it. */
export function TemplateFields({
  templates,
  status,
  loadError,
  errors,
  onChange,
}: {
  templates: TemplateItem[];
  status: "loading" | "ready" | "error";
  loadError?: string;
  errors: Record<string, string>;
  onChange: (choice: TemplateChoice | null) => void;
}) {
  const uid = useId();
  const [selectedId, setSelectedId] = useState("");
  const [values, setValues] = useState<string[]>([]);
  const selected = templates.find((t) => t.id === selectedId);

  function update(id: string, next: string[]) {
    setSelectedId(id);
    setValues(next);
    const template = templates.find((t) => t.id === id);
    onChange(template ? { name: template.name, language: template.language, variables: next.slice(0, template.variables) } : null);
  }

  if (status === "loading") return <p className="text-sm text-slate-500">Loading templates…</p>;
  if (status === "error") return <p role="alert" className="text-sm text-red-700">{loadError ?? "Templates could not be loaded."}</p>;
  if (templates.length === 0) {
    return (
      <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
        No approved template yet. An administrator can create one in <a className="underline" href="/settings/templates">Settings → Templates</a>.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${uid}-choice`} className="text-sm font-medium text-slate-700">
          Template
        </label>
        <select
          id={`${uid}-choice`}
          value={selectedId}
          onChange={(e) => update(e.target.value, Array.from({ length: templates.find((t) => t.id === e.target.value)?.variables ?? 0 }, () => ""))}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
        >
          <option value="">Choose a template…</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
        {errors["template.name"] ? <p className="text-xs text-red-600">{errors["template.name"]}</p> : null}
      </div>
      {selected
        ? values.map((value, index) => (
            <div key={index} className="flex flex-col gap-1">
              <label htmlFor={`${uid}-var-${index}`} className="text-sm font-medium text-slate-700">
                {`Value for {{${index + 1}}}`}
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
      {selected ? (
        <div className="rounded-lg bg-brand-50 px-3 py-2 text-sm" data-testid="template-preview">
          <p className="mb-1 text-xs font-medium text-slate-500">Preview</p>
          {selected.components.header ? <p className="font-semibold">{selected.components.header.text}</p> : null}
          <p className="whitespace-pre-wrap">{render(selected.components.body.text, values)}</p>
          {selected.components.footer ? <p className="text-xs text-slate-500">{selected.components.footer.text}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
