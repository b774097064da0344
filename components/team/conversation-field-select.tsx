"use client";

import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";

type FieldOption = { value: string; label: string; userContent?: boolean };

/**
 * One field of a conversation as a header select: choosing saves it through
 * `PATCH /v1/conversations/{id}` (the empty choice clears it) and hands the updated conversation
 * back; a refusal shows as the select's title and leaves the value as it was.
 */
export function ConversationFieldSelect<C extends { id: string }>({
  conversation,
  onConversation,
  field,
  value,
  label,
  noneLabel,
  options,
  testId,
}: {
  conversation: C;
  onConversation: (c: C) => void;
  field: "priority" | "team_id";
  value: string | null | undefined;
  label: string;
  noneLabel: string;
  options: FieldOption[];
  testId: string;
}) {
  const errorMessage = useApiErrorMessage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const id = `${field === "team_id" ? "team" : field}-${conversation.id}`;

  async function change(next: string) {
    setBusy(true);
    setError(undefined);
    const result = await requestJson<C>("PATCH", `/v1/conversations/${conversation.id}`, { [field]: next || null });
    setBusy(false);
    if (result.ok) onConversation(result.data);
    else setError(errorMessage(result));
  }

  return (
    <span className="inline-flex items-center">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        data-testid={testId}
        value={value ?? ""}
        disabled={busy}
        onChange={(e) => void change(e.target.value)}
        title={error}
        aria-invalid={error ? true : undefined}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-2 py-2 text-sm md:min-h-0"
      >
        <option value="">{noneLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value} data-user-content={o.userContent || undefined}>
            {o.label}
          </option>
        ))}
      </select>
    </span>
  );
}
