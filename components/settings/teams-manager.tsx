"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { requestJson } from "@/lib/client/api";

type Person = { id: string; name: string; availability: string };
type Team = { id: string; name: string; members: string[] };
type Message = { tone: "ok" | "error"; text: string };

const availabilityDot: Record<string, string> = { online: "bg-green-500", busy: "bg-amber-500", offline: "bg-slate-400", away: "bg-slate-300" };

/** Who is on the team, with their availability: the team panel. */
function MemberList({ people, ids }: { people: Person[]; ids: string[] }) {
  const members = people.filter((p) => ids.includes(p.id));
  if (members.length === 0) return <p className="text-sm text-slate-500">No members yet.</p>;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Members">
      {members.map((p) => (
        <li key={p.id} className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 px-2.5 py-1 text-sm">
          <span aria-hidden className={`h-2 w-2 rounded-full ${availabilityDot[p.availability] ?? "bg-slate-300"}`} />
          {p.name}
          <span className="text-xs text-slate-500">{p.availability}</span>
        </li>
      ))}
    </ul>
  );
}

function MemberPicker({ people, value, onChange, idPrefix }: { people: Person[]; value: string[]; onChange: (ids: string[]) => void; idPrefix: string }) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-700">Members</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {people.map((p) => (
          <label key={p.id} htmlFor={`${idPrefix}-${p.id}`} className="inline-flex min-h-11 items-center gap-2 text-sm md:min-h-0">
            <input
              id={`${idPrefix}-${p.id}`}
              type="checkbox"
              checked={value.includes(p.id)}
              onChange={(e) => onChange(e.target.checked ? [...value, p.id] : value.filter((id) => id !== p.id))}
              className="h-5 w-5 md:h-4 md:w-4"
            />
            {p.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Settings → Teams: the teams and their members (administrators change them; everyone sees them). */
export function TeamsManager({ teams: initial, people, canEdit }: { teams: Team[]; people: Person[]; canEdit: boolean }) {
  const [teams, setTeams] = useState(initial);
  const [name, setName] = useState("");
  const [members, setMembers] = useState<string[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState<string[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<Message>();

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy("create");
    setErrors({});
    setMessage(undefined);
    const result = await requestJson<Team>("POST", "/v1/teams", { name, members });
    setBusy(null);
    if (result.ok) {
      setTeams((list) => [...list, result.data]);
      setName("");
      setMembers([]);
      setMessage({ tone: "ok", text: `Team “${result.data.name}” created.` });
    } else if (result.status === 409) setErrors({ name: "A team with this name already exists." });
    else {
      setErrors(result.fieldErrors);
      setMessage({ tone: "error", text: result.message });
    }
  }

  async function saveMembers(team: Team) {
    setBusy(team.id);
    const result = await requestJson<Team>("PATCH", `/v1/teams/${team.id}`, { members: draft });
    setBusy(null);
    if (result.ok) {
      setTeams((list) => list.map((t) => (t.id === team.id ? result.data : t)));
      setEditing(null);
      setMessage({ tone: "ok", text: `Members of “${team.name}” saved.` });
    } else setMessage({ tone: "error", text: result.message });
  }

  async function remove(team: Team) {
    setBusy(team.id);
    const result = await requestJson("DELETE", `/v1/teams/${team.id}`);
    setBusy(null);
    if (result.ok || result.status === 404) {
      setTeams((list) => list.filter((t) => t.id !== team.id));
      setMessage({ tone: "ok", text: `Team “${team.name}” deleted; its conversations keep going without a team.` });
    } else setMessage({ tone: "error", text: result.message });
  }

  return (
    <div className="flex flex-col gap-4">
      {canEdit ? (
        <Card>
          <form onSubmit={create} className="flex flex-col gap-4" aria-label="New team">
            <Field label="Team name" name="team-name" value={name} maxLength={60} required onChange={(e) => setName(e.target.value)} error={errors.name} />
            <MemberPicker people={people} value={members} onChange={setMembers} idPrefix="new-member" />
            <div>
              <Button type="submit" className="min-h-11 md:min-h-0" disabled={busy === "create" || !name.trim()}>
                {busy === "create" ? "Creating…" : "Create team"}
              </Button>
            </div>
          </form>
        </Card>
      ) : null}
      {message ? (
        <p role={message.tone === "error" ? "alert" : "status"} className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
          {message.text}
        </p>
      ) : null}
      <Card className="p-0">
        <ul aria-label="Teams" className="divide-y divide-slate-100">
          {teams.length === 0 ? <li className="p-6 text-center text-sm text-slate-500">No teams yet.</li> : null}
          {teams.map((team) => (
            <li key={team.id} className="flex flex-col gap-2 px-4 py-3">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-medium">{team.name}</h3>
                {canEdit ? (
                  <span className="ml-auto flex gap-2">
                    <Button
                      type="button"
                      variant="secondary"
                      className="min-h-11 px-2.5 py-1 md:min-h-0"
                      onClick={() => {
                        setEditing(editing === team.id ? null : team.id);
                        setDraft(team.members);
                      }}
                    >
                      {editing === team.id ? "Cancel" : "Edit members"}
                    </Button>
                    <Button type="button" variant="danger" className="min-h-11 px-2.5 py-1 md:min-h-0" disabled={busy === team.id} onClick={() => void remove(team)} aria-label={`Delete team ${team.name}`}>
                      Delete
                    </Button>
                  </span>
                ) : null}
              </div>
              {editing === team.id ? (
                <div className="flex flex-col gap-2">
                  <MemberPicker people={people} value={draft} onChange={setDraft} idPrefix={`member-${team.id}`} />
                  <div>
                    <Button type="button" className="min-h-11 md:min-h-0" disabled={busy === team.id} onClick={() => void saveMembers(team)}>
                      Save members
                    </Button>
                  </div>
                </div>
              ) : (
                <MemberList people={people} ids={team.members} />
              )}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
