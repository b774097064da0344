"use client";

import { useTranslations } from "next-intl";
import { useLabels } from "./use-labels";

/** Narrows the list to one label; hidden while the account has none. */
export function LabelFilter({ value, onChange }: { value: string | null; onChange: (labelId: string | null) => void }) {
  const t = useTranslations("inbox.labels");
  const { labels } = useLabels();
  if (labels.length === 0 && !value) return null;
  return (
    <div className="flex items-center gap-2 text-xs">
      <label htmlFor="inbox-label-filter" className="font-medium text-slate-600">
        {t("filter")}
      </label>
      <select
        id="inbox-label-filter"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        <option value="">{t("all")}</option>
        {labels.map((label) => (
          <option key={label.id} value={label.id} data-user-content>
            {label.name}
          </option>
        ))}
      </select>
    </div>
  );
}
