"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { StatusNote } from "@/components/ui/status-note";
import { useListMutation } from "./use-list-mutation";
import { CreateForm, SettingsList } from "./settings-list";

type Person = { id: string; name: string; availability: string };
type Team = { id: string; name: string; members: string[] };

const availabilityDot: Record<string, string> = { online: "bg-green-500", busy: "bg-amber-500", offline: "bg-slate-400", away: "bg-slate-300" };
// Catalog keys (namespace settingsTeams.teams) of each availability.
const availabilityLabel: Record<string, string> = { online: "availability.online", busy: "availability.busy", offline: "availability.offline", away: "availability.away" };

/** Who is on the team, with their availability: the team panel. */
function MemberList({ people, ids }: { people: Person[]; ids: string[] }) {
  const t = useTranslations("settingsTeams.teams");
  const members = people.filter((p) => ids.includes(p.id));
  if (members.length === 0) return <p className="text-sm text-slate-500">{t("noMembers")}</p>;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t("members")}>
      {members.map((p) => (
        <li key={p.id} className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 px-2.5 py-1 text-sm">
          <span aria-hidden className={`h-2 w-2 rounded-full ${availabilityDot[p.availability] ?? "bg-slate-300"}`} />
          <span data-user-content>{p.name}</span>
          <span className="text-xs text-slate-500">{availabilityLabel[p.availability] ? t(availabilityLabel[p.availability]) : p.availability}</span>
        </li>
      ))}
    </ul>
  );
}

function MemberPicker({ people, value, onChange, idPrefix }: { people: Person[]; value: string[]; onChange: (ids: string[]) => void; idPrefix: string }) {
  const t = useTranslations("settingsTeams.teams");
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-700">{t("members")}</legend>
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
            <span data-user-content>{p.name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Settings → Teams: the teams and their members (administrators change them; everyone sees them). */
export function TeamsManager({ teams: initial, people, canEdit }: { teams: Team[]; people: Person[]; canEdit: boolean }) {
  const { items: teams, setItems: setTeams, busy, errors, message, setMessage, submit, change, remove: removeRow } = useListMutation(initial);
  const [name, setName] = useState("");
  const [members, setMembers] = useState<string[]>([]);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState<string[]>([]);
  const t = useTranslations("settingsTeams.teams");

  async function create(e: React.FormEvent) {
    e.preventDefault();
    const created = await submit("create", "POST", "/v1/teams", { name, members }, t("duplicate"));
    if (!created) return;
    setTeams((list) => [...list, created]);
    setName("");
    setMembers([]);
    setMessage({ tone: "ok", text: t("created", { name: created.name }) });
  }

  async function saveMembers(team: Team) {
    const saved = await change(team.id, "PATCH", `/v1/teams/${team.id}`, { members: draft });
    if (!saved) return;
    setTeams((list) => list.map((other) => (other.id === team.id ? saved : other)));
    setEditing(null);
    setMessage({ tone: "ok", text: t("membersSaved", { name: team.name }) });
  }

  async function remove(team: Team) {
    if (await removeRow(team, `/v1/teams/${team.id}`)) setMessage({ tone: "ok", text: t("deleted", { name: team.name }) });
  }

  return (
    <div className="flex flex-col gap-4">
      {canEdit ? (
        <CreateForm label={t("new")} onSubmit={create} busy={busy === "create"} canSubmit={!!name.trim()} createLabel={t("create")} creatingLabel={t("creating")}>
          <Field label={t("name")} name="team-name" value={name} maxLength={60} required onChange={(e) => setName(e.target.value)} error={errors.name} />
          <MemberPicker people={people} value={members} onChange={setMembers} idPrefix="new-member" />
        </CreateForm>
      ) : null}
      <StatusNote message={message} />
      <SettingsList label={t("list")} empty={t("empty")} items={teams}>
        {(team) => (
          <li key={team.id} className="flex flex-col gap-2 px-4 py-3">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-medium" data-user-content>
                {team.name}
              </h3>
              {canEdit ? (
                <span className="ms-auto flex gap-2">
                  <Button
                    type="button"
                    variant="secondary"
                    className="min-h-11 px-2.5 py-1 md:min-h-0"
                    onClick={() => {
                      setEditing(editing === team.id ? null : team.id);
                      setDraft(team.members);
                    }}
                  >
                    {editing === team.id ? t("cancel") : t("editMembers")}
                  </Button>
                  <Button type="button" variant="danger" className="min-h-11 px-2.5 py-1 md:min-h-0" disabled={busy === team.id} onClick={() => void remove(team)} aria-label={t("deleteTeam", { name: team.name })}>
                    {t("delete")}
                  </Button>
                </span>
              ) : null}
            </div>
            {editing === team.id ? (
              <div className="flex flex-col gap-2">
                <MemberPicker people={people} value={draft} onChange={setDraft} idPrefix={`member-${team.id}`} />
                <div>
                  <Button type="button" className="min-h-11 md:min-h-0" disabled={busy === team.id} onClick={() => void saveMembers(team)}>
                    {t("saveMembers")}
                  </Button>
                </div>
              </div>
            ) : (
              <MemberList people={people} ids={team.members} />
            )}
          </li>
        )}
      </SettingsList>
    </div>
  );
}
