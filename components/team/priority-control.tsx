"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";

type Priority = "urgent" | "high" | "medium" | "low";

// Catalog keys (namespace teamControls) of each priority.
const priorityLabels: Record<Priority, string> = { urgent: "priority.urgent", high: "priority.high", medium: "priority.medium", low: "priority.low" };
const priorityTone: Record<Priority, string> = {
  urgent: "bg-red-600 text-white",
  high: "bg-orange-100 text-orange-900",
  medium: "bg-sky-100 text-sky-900",
  low: "bg-slate-100 text-slate-700",
};

/** A small priority marker for lists and headers; nothing without a priority. */
export function PriorityMark({ priority }: { priority?: Priority | null }) {
  const t = useTranslations("teamControls");
  if (!priority) return null;
  return (
    <span data-testid="priority-mark" className={`inline-flex shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${priorityTone[priority]}`}>
      {t(priorityLabels[priority])}
    </span>
  );
}

/**
 * The conversation's priority as a select (a self-contained header control: it saves through
 * `PATCH /v1/conversations/{id}` and hands the updated conversation back).
 */
export function PriorityControl<C extends { id: string; priority?: Priority | null }>({ conversation, onConversation }: { conversation: C; onConversation: (c: C) => void }) {
  const t = useTranslations("teamControls");
  const errorMessage = useApiErrorMessage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const id = `priority-${conversation.id}`;

  async function change(value: string) {
    setBusy(true);
    setError(undefined);
    const result = await requestJson<C>("PATCH", `/v1/conversations/${conversation.id}`, { priority: value || null });
    setBusy(false);
    if (result.ok) onConversation(result.data);
    else setError(errorMessage(result));
  }

  return (
    <span className="inline-flex items-center">
      <label className="sr-only" htmlFor={id}>
        {t("priority.label")}
      </label>
      <select
        id={id}
        data-testid="priority-select"
        value={conversation.priority ?? ""}
        disabled={busy}
        onChange={(e) => void change(e.target.value)}
        title={error}
        aria-invalid={error ? true : undefined}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-2 py-2 text-sm md:min-h-0"
      >
        <option value="">{t("priority.none")}</option>
        {(Object.keys(priorityLabels) as Priority[]).map((p) => (
          <option key={p} value={p}>
            {t(priorityLabels[p])}
          </option>
        ))}
      </select>
    </span>
  );
}
