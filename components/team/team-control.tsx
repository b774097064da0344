"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { useTeams } from "./use-teams";

/** The conversation's team as a select (hidden while the account has no team); saves through `PATCH /v1/conversations/{id}`. */
export function TeamControl<C extends { id: string; team_id?: string | null }>({ conversation, onConversation }: { conversation: C; onConversation: (c: C) => void }) {
  const teams = useTeams();
  const t = useTranslations("teamControls.team");
  const errorMessage = useApiErrorMessage();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (teams.length === 0 && !conversation.team_id) return null;
  const id = `team-${conversation.id}`;

  async function change(value: string) {
    setBusy(true);
    setError(undefined);
    const result = await requestJson<C>("PATCH", `/v1/conversations/${conversation.id}`, { team_id: value || null });
    setBusy(false);
    if (result.ok) onConversation(result.data);
    else setError(errorMessage(result));
  }

  return (
    <span className="inline-flex items-center">
      <label className="sr-only" htmlFor={id}>
        {t("label")}
      </label>
      <select
        id={id}
        data-testid="team-select"
        value={conversation.team_id ?? ""}
        disabled={busy}
        onChange={(e) => void change(e.target.value)}
        title={error}
        aria-invalid={error ? true : undefined}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-2 py-2 text-sm md:min-h-0"
      >
        <option value="">{t("none")}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id} data-user-content>
            {team.name}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Narrows the inbox to one team (or to conversations without one); hidden while the account has no team. */
export function TeamFilter({ value, onChange }: { value: string | null; onChange: (team: string | null) => void }) {
  const teams = useTeams();
  const t = useTranslations("teamControls.team");
  if (teams.length === 0 && !value) return null;
  return (
    <div className="flex items-center gap-2 text-xs">
      <label htmlFor="inbox-team-filter" className="font-medium text-slate-600">
        {t("label")}
      </label>
      <select
        id="inbox-team-filter"
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value || null)}
        className="min-h-11 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm md:min-h-0"
      >
        <option value="">{t("all")}</option>
        <option value="none">{t("none")}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id} data-user-content>
            {team.name}
          </option>
        ))}
      </select>
    </div>
  );
}
