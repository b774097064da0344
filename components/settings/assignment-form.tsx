"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { StatusNote } from "@/components/ui/status-note";
import { CapacityInput } from "./capacity-input";
import { SaveButton } from "./setting-save";
import { type AssignmentConfig, currentAssignment, useAssignmentSave } from "./use-assignment-save";


const modes = [
  { value: "manual", label: "mode.manual.label", hint: "mode.manual.hint" },
  { value: "round_robin", label: "mode.roundRobin.label", hint: "mode.roundRobin.hint" },
  { value: "balanced", label: "mode.balanced.label", hint: "mode.balanced.hint" },
] as const;

/** The account's assignment policy: mode, capacity per person and the away delay. */
export function AssignmentForm({ initial, canEdit }: { initial: AssignmentConfig; canEdit: boolean }) {
  const [mode, setMode] = useState(initial.mode);
  const [capacity, setCapacity] = useState(initial.capacity ? String(initial.capacity) : "");
  const [awayMinutes, setAwayMinutes] = useState(String(Math.round(initial.away_after_s / 60)));
  const { busy, message, save: put } = useAssignmentSave();
  const t = useTranslations("settingsTeams.assignment");

  function save(e: React.FormEvent) {
    e.preventDefault();
    void put(t("saved"), async () => {
      // Per-person capacities are edited beside this form: keep them as they are now.
      const current = await currentAssignment();
      return {
        mode,
        capacity: capacity.trim() ? Number(capacity) : null,
        agent_capacities: current.ok ? current.data.agent_capacities : initial.agent_capacities,
        away_after_s: Number(awayMinutes) * 60,
      };
    });
  }

  return (
    <Card>
      <form onSubmit={save} className="flex flex-col gap-4" aria-label={t("form")}>
        <fieldset className="flex flex-col gap-2" disabled={!canEdit}>
          <legend className="mb-1 text-sm font-medium text-slate-700">{t("newConversations")}</legend>
          {modes.map((m) => (
            <label key={m.value} className="flex min-h-11 items-start gap-2 text-sm md:min-h-0">
              <input type="radio" name="mode" value={m.value} checked={mode === m.value} onChange={() => setMode(m.value)} className="mt-0.5 h-5 w-5 md:h-4 md:w-4" />
              <span>
                <span className="font-medium">{t(m.label)}</span> <span className="text-slate-600">— {t(m.hint)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-col gap-4 sm:flex-row">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            {t("capacity")}
            <CapacityInput
              placeholder={t("noLimit")}
              value={capacity}
              disabled={!canEdit}
              onChange={setCapacity}
              className="min-h-11 rounded-md border border-slate-300 px-3 py-2 font-normal md:min-h-0"
            />
            <span className="text-xs font-normal text-slate-500">{t("capacityHint")}</span>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            {t("awayAfter")}
            <input
              type="number"
              min={1}
              max={1440}
              inputMode="numeric"
              value={awayMinutes}
              disabled={!canEdit}
              onChange={(e) => setAwayMinutes(e.target.value)}
              className="min-h-11 rounded-md border border-slate-300 px-3 py-2 font-normal md:min-h-0"
            />
            <span className="text-xs font-normal text-slate-500">{t("awayHint")}</span>
          </label>
        </div>
        {canEdit ? (
          <div>
            <SaveButton busy={busy} label={t("save")} busyLabel={t("saving")} />
          </div>
        ) : (
          <p className="text-sm text-slate-600">{t("adminOnly")}</p>
        )}
        <StatusNote message={message} />
      </form>
    </Card>
  );
}
