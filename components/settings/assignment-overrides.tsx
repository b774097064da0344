"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Card } from "@/components/ui/card";
import { StatusNote } from "@/components/ui/status-note";
import { requestJson } from "@/lib/client/api";
import { CapacityInput } from "./capacity-input";
import { SaveButton } from "./setting-save";
import { type AssignmentConfig, currentAssignment, useAssignmentSave } from "./use-assignment-save";

type Mode = AssignmentConfig["mode"];
type Named = { id: string; name: string };

// Keys of the `assignmentOverrides` catalog namespace.
const modeLabels: Record<Mode | "inherit", string> = {
  inherit: "mode.inherit",
  manual: "mode.manual",
  round_robin: "mode.round_robin",
  balanced: "mode.balanced",
};

const inputClass = "min-h-11 w-full rounded-md border border-slate-300 px-3 py-2 text-sm md:min-h-0";
const toCapacity = (value: string) => (value.trim() ? Number(value) : null);

/** Each person's own capacity, overriding the account's per-person capacity. */
function PersonCapacities({ people, canEdit }: { people: Named[]; canEdit: boolean }) {
  const t = useTranslations("assignmentOverrides");
  const [values, setValues] = useState<Record<string, string>>({});
  const [fallback, setFallback] = useState<number | null>(null);
  const { busy, message, save: put } = useAssignmentSave();
  // A slow first load never overwrites what the person already typed or saved.
  const touched = useRef(false);

  useEffect(() => {
    void currentAssignment().then((result) => {
      if (!result.ok) return;
      setFallback(result.data.capacity);
      if (!touched.current) setValues(Object.fromEntries(Object.entries(result.data.agent_capacities).map(([id, n]) => [id, String(n)])));
    });
  }, []);

  function save(e: React.FormEvent) {
    e.preventDefault();
    void put(t("people.saved"), async () => {
      // The rest of the account's policy as it is now (another form may have changed it).
      const current = await currentAssignment();
      if (!current.ok) return current;
      const agentCapacities = Object.fromEntries(Object.entries(values).flatMap(([id, v]) => (toCapacity(v) === null ? [] : [[id, Number(v)]])));
      const { mode, capacity, away_after_s } = current.data;
      return { mode, capacity, away_after_s, agent_capacities: agentCapacities };
    });
  }

  return (
    <Card>
      <form onSubmit={save} className="flex flex-col gap-3" aria-label={t("people.title")}>
        <div>
          <h3 className="text-sm font-medium text-slate-800">{t("people.title")}</h3>
          <p className="text-xs text-slate-500">
            {fallback ? t("people.hintWithLimit", { limit: fallback }) : t("people.hintNoLimit")}
          </p>
        </div>
        <ul className="flex flex-col gap-2">
          {people.map((person) => (
            <li key={person.id} className="flex items-center gap-3">
              <label htmlFor={`capacity-${person.id}`} className="min-w-0 flex-1 truncate text-sm" data-user-content>
                {person.name}
              </label>
              <CapacityInput
                id={`capacity-${person.id}`}
                placeholder={fallback ? String(fallback) : t("noLimit")}
                value={values[person.id] ?? ""}
                disabled={!canEdit}
                onChange={(value) => {
                  touched.current = true;
                  setValues((prev) => ({ ...prev, [person.id]: value }));
                }}
                className={`${inputClass} max-w-28`}
              />
            </li>
          ))}
        </ul>
        {canEdit ? (
          <div>
            <SaveButton busy={busy} label={t("people.save")} busyLabel={t("saving")} />
          </div>
        ) : null}
        <StatusNote message={message} />
      </form>
    </Card>
  );
}

/** One team's own policy, or the account's. */
function TeamPolicy({ team, canEdit }: { team: Named; canEdit: boolean }) {
  const t = useTranslations("assignmentOverrides");
  const [mode, setMode] = useState<Mode | "inherit">("inherit");
  const [capacity, setCapacity] = useState("");
  const [own, setOwn] = useState<Record<string, number>>({});
  const { busy, message, save: put } = useAssignmentSave();
  const touched = useRef(false);

  useEffect(() => {
    void requestJson<AssignmentConfig>("GET", `/v1/config/assignment?team_id=${encodeURIComponent(team.id)}`).then((result) => {
      if (!result.ok || touched.current) return;
      setMode(result.data.inherited ? "inherit" : result.data.mode);
      setCapacity(!result.data.inherited && result.data.capacity ? String(result.data.capacity) : "");
      setOwn(result.data.inherited ? {} : result.data.agent_capacities);
    });
  }, [team.id]);

  function save(e: React.FormEvent) {
    e.preventDefault();
    const body = mode === "inherit" ? { team_id: team.id, mode } : { team_id: team.id, mode, capacity: toCapacity(capacity), agent_capacities: own };
    void put(t("teams.saved", { team: team.name }), async () => body);
  }

  const ids = { mode: `team-mode-${team.id}`, capacity: `team-capacity-${team.id}` };
  return (
    <li>
      <form onSubmit={save} aria-label={t("teams.formLabel", { team: team.name })} className="flex flex-col gap-2 border-b border-slate-100 pb-3 sm:flex-row sm:items-end">
        <span className="text-sm font-medium sm:w-40 sm:pb-2" data-user-content>
          {team.name}
        </span>
        <label htmlFor={ids.mode} className="flex flex-1 flex-col gap-1 text-xs text-slate-600">
          {t("teams.policy")}
          <select id={ids.mode} value={mode} disabled={!canEdit} onChange={(e) => {
              touched.current = true;
              setMode(e.target.value as Mode | "inherit");
            }} className={`${inputClass} bg-white`}>
            {(Object.keys(modeLabels) as (Mode | "inherit")[]).map((m) => (
              <option key={m} value={m}>
                {t(modeLabels[m])}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.capacity} className="flex flex-col gap-1 text-xs text-slate-600 sm:w-32">
          {t("teams.capacity")}
          <CapacityInput
            id={ids.capacity}
            placeholder={t("noLimit")}
            value={capacity}
            disabled={!canEdit || mode === "inherit"}
            onChange={(value) => {
              touched.current = true;
              setCapacity(value);
            }}
            className={inputClass}
          />
        </label>
        {canEdit ? (
          <SaveButton busy={busy} label={t("teams.save")} busyLabel={t("saving")} variant="secondary" />
        ) : null}
      </form>
      <StatusNote message={message} />
    </li>
  );
}

/**
 * What the account policy form leaves out: each person's own capacity, and each team's own
 * policy (`manual | round_robin | balanced`, or the account's), all through `/v1/config/assignment`.
 */
export function AssignmentOverrides({ teams, people, canEdit }: { teams: Named[]; people: Named[]; canEdit: boolean }) {
  const t = useTranslations("assignmentOverrides");
  return (
    <div className="flex flex-col gap-4">
      <PersonCapacities people={people} canEdit={canEdit} />
      {teams.length ? (
        <Card>
          <h3 className="text-sm font-medium text-slate-800">{t("teams.title")}</h3>
          <p className="mb-3 text-xs text-slate-500">{t("teams.hint")}</p>
          <ul className="flex flex-col gap-3">
            {teams.map((team) => (
              <TeamPolicy key={team.id} team={team} canEdit={canEdit} />
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}
