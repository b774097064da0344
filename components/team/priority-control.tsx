"use client";

import { useTranslations } from "next-intl";
import { ConversationFieldSelect } from "./conversation-field-select";

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
  return (
    <ConversationFieldSelect
      conversation={conversation}
      onConversation={onConversation}
      field="priority"
      value={conversation.priority}
      label={t("priority.label")}
      noneLabel={t("priority.none")}
      options={(Object.keys(priorityLabels) as Priority[]).map((p) => ({ value: p, label: t(priorityLabels[p]) }))}
      testId="priority-select"
    />
  );
}
