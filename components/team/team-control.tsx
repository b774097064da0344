"use client";

import { useTranslations } from "next-intl";
import { ConversationFieldSelect } from "./conversation-field-select";
import { useTeams } from "./use-teams";

/** The conversation's team as a select (hidden while the account has no team); saves through `PATCH /v1/conversations/{id}`. */
export function TeamControl<C extends { id: string; team_id?: string | null }>({ conversation, onConversation }: { conversation: C; onConversation: (c: C) => void }) {
  const teams = useTeams();
  const t = useTranslations("teamControls.team");
  if (teams.length === 0 && !conversation.team_id) return null;
  return (
    <ConversationFieldSelect
      conversation={conversation}
      onConversation={onConversation}
      field="team_id"
      value={conversation.team_id}
      label={t("label")}
      noneLabel={t("none")}
      options={teams.map((team) => ({ value: team.id, label: team.name, userContent: true }))}
      testId="team-select"
    />
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
