"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";

type Mode = "manual" | "round_robin" | "balanced";
type Config = { team_id: string | null; inherited: boolean; mode: Mode; capacity: number | null; agent_capacities: Record<string, number>; away_after_s: number };
type Named = { id: string; name: string };
type Message = { tone: "ok" | "error"; text: string };

const modeLabels: Record<Mode | "inherit", string> = {
  inherit: "Same as the account",
  manual: "Manual",
  round_robin: "Round robin",
  balanced: "Balanced (fewest open)",
};

const inputClass = "min-h-11 w-full rounded-md border border-slate-300 px-3 py-2 text-sm md:min-h-0";
const toCapacity = (value: string) => (value.trim() ? Number(value) : null);

function Note({ message }: { message?: Message }) {
  if (!message) return null;
  return (
    <p role={message.tone === "error" ? "alert" : "status"} className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
      {message.text}
    </p>
  );
}

/** Each person's own capacity, overriding the account's per-person capacity. */
function PersonCapacities({ people, canEdit }: { people: Named[]; canEdit: boolean }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [fallback, setFallback] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>();
  // A slow first load never overwrites what the person already typed or saved.
  const touched = useRef(false);

  useEffect(() => {
    void requestJson<Config>("GET", "/v1/config/assignment").then((result) => {
      if (!result.ok) return;
      setFallback(result.data.capacity);
      if (!touched.current) setValues(Object.fromEntries(Object.entries(result.data.agent_capacities).map(([id, n]) => [id, String(n)])));
    });
  }, []);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(undefined);
    // The rest of the account's policy as it is now (another form may have changed it).
    const current = await requestJson<Config>("GET", "/v1/config/assignment");
    if (!current.ok) {
      setBusy(false);
      setMessage({ tone: "error", text: current.message });
      return;
    }
    const agentCapacities = Object.fromEntries(Object.entries(values).flatMap(([id, v]) => (toCapacity(v) === null ? [] : [[id, Number(v)]])));
    const { mode, capacity, away_after_s } = current.data;
    const result = await requestJson<Config>("PUT", "/v1/config/assignment", { mode, capacity, away_after_s, agent_capacities: agentCapacities });
    setBusy(false);
    setMessage(result.ok ? { tone: "ok", text: "Capacities saved." } : { tone: "error", text: result.message });
  }

  return (
    <Card>
      <form onSubmit={save} className="flex flex-col gap-3" aria-label="Capacity per person">
        <div>
          <h3 className="text-sm font-medium text-slate-800">Capacity per person</h3>
          <p className="text-xs text-slate-500">
            Open conversations each person takes before getting no more automatically. Empty: the account&apos;s {fallback ? `(${fallback})` : "(no limit)"}.
          </p>
        </div>
        <ul className="flex flex-col gap-2">
          {people.map((person) => (
            <li key={person.id} className="flex items-center gap-3">
              <label htmlFor={`capacity-${person.id}`} className="min-w-0 flex-1 truncate text-sm">
                {person.name}
              </label>
              <input
                id={`capacity-${person.id}`}
                type="number"
                min={1}
                max={1000}
                inputMode="numeric"
                placeholder={fallback ? String(fallback) : "No limit"}
                value={values[person.id] ?? ""}
                disabled={!canEdit}
                onChange={(e) => {
                  touched.current = true;
                  setValues((prev) => ({ ...prev, [person.id]: e.target.value }));
                }}
                className={`${inputClass} max-w-28`}
              />
            </li>
          ))}
        </ul>
        {canEdit ? (
          <div>
            <Button type="submit" className="min-h-11 md:min-h-0" disabled={busy}>
              {busy ? "Saving…" : "Save capacities"}
            </Button>
          </div>
        ) : null}
        <Note message={message} />
      </form>
    </Card>
  );
}

/** One team's own policy, or the account's. */
function TeamPolicy({ team, canEdit }: { team: Named; canEdit: boolean }) {
  const [mode, setMode] = useState<Mode | "inherit">("inherit");
  const [capacity, setCapacity] = useState("");
  const [own, setOwn] = useState<Record<string, number>>({});
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>();
  const touched = useRef(false);

  useEffect(() => {
    void requestJson<Config>("GET", `/v1/config/assignment?team_id=${encodeURIComponent(team.id)}`).then((result) => {
      if (!result.ok || touched.current) return;
      setMode(result.data.inherited ? "inherit" : result.data.mode);
      setCapacity(!result.data.inherited && result.data.capacity ? String(result.data.capacity) : "");
      setOwn(result.data.inherited ? {} : result.data.agent_capacities);
    });
  }, [team.id]);

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(undefined);
    const body = mode === "inherit" ? { team_id: team.id, mode } : { team_id: team.id, mode, capacity: toCapacity(capacity), agent_capacities: own };
    const result = await requestJson<Config>("PUT", "/v1/config/assignment", body);
    setBusy(false);
    setMessage(result.ok ? { tone: "ok", text: `${team.name}: saved.` } : { tone: "error", text: result.message });
  }

  const ids = { mode: `team-mode-${team.id}`, capacity: `team-capacity-${team.id}` };
  return (
    <li>
      <form onSubmit={save} aria-label={`Assignment for ${team.name}`} className="flex flex-col gap-2 border-b border-slate-100 pb-3 sm:flex-row sm:items-end">
        <span className="text-sm font-medium sm:w-40 sm:pb-2">{team.name}</span>
        <label htmlFor={ids.mode} className="flex flex-1 flex-col gap-1 text-xs text-slate-600">
          Policy
          <select id={ids.mode} value={mode} disabled={!canEdit} onChange={(e) => {
              touched.current = true;
              setMode(e.target.value as Mode | "inherit");
            }} className={`${inputClass} bg-white`}>
            {(Object.keys(modeLabels) as (Mode | "inherit")[]).map((m) => (
              <option key={m} value={m}>
                {modeLabels[m]}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.capacity} className="flex flex-col gap-1 text-xs text-slate-600 sm:w-32">
          Capacity
          <input
            id={ids.capacity}
            type="number"
            min={1}
            max={1000}
            inputMode="numeric"
            placeholder="No limit"
            value={capacity}
            disabled={!canEdit || mode === "inherit"}
            onChange={(e) => {
              touched.current = true;
              setCapacity(e.target.value);
            }}
            className={inputClass}
          />
        </label>
        {canEdit ? (
          <Button type="submit" variant="secondary" className="min-h-11 md:min-h-0" disabled={busy}>
            {busy ? "Saving…" : "Save"}
          </Button>
        ) : null}
      </form>
      <Note message={message} />
    </li>
  );
}

/**
 * What the account policy form leaves out: each person's own capacity, and each team's own
 * policy (`manual | round_robin | balanced`, or the account's), all through `/v1/config/assignment`.
 */
export function AssignmentOverrides({ teams, people, canEdit }: { teams: Named[]; people: Named[]; canEdit: boolean }) {
  return (
    <div className="flex flex-col gap-4">
      <PersonCapacities people={people} canEdit={canEdit} />
      {teams.length ? (
        <Card>
          <h3 className="text-sm font-medium text-slate-800">Per team</h3>
          <p className="mb-3 text-xs text-slate-500">A team&apos;s conversations are handed out to its members by its own policy, or by the account&apos;s.</p>
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
