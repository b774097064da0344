"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { requestJson } from "@/lib/client/api";
import type { SlaPolicyOutput } from "@/lib/sla/schemas";

type Policy = SlaPolicyOutput;

const minutesText = (seconds: number | null) => (seconds === null ? "—" : seconds % 3600 === 0 ? `${seconds / 3600} h` : `${Math.round(seconds / 60)} min`);
const toSeconds = (minutes: string) => (minutes.trim() ? Math.round(Number(minutes) * 60) : null);

/** Settings → Teams → SLA policies: targets in minutes, business hours or not, one default. */
export function SlaPoliciesManager({ policies: initial, canEdit }: { policies: Policy[]; canEdit: boolean }) {
  const [policies, setPolicies] = useState(initial);
  const [name, setName] = useState("");
  const [first, setFirst] = useState("");
  const [next, setNext] = useState("");
  const [resolution, setResolution] = useState("");
  const [businessHours, setBusinessHours] = useState(true);
  const [isDefault, setIsDefault] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string }>();

  const markDefault = (list: Policy[], id: string | null) => list.map((p) => ({ ...p, default: p.id === id }));

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy("create");
    setErrors({});
    setMessage(undefined);
    const result = await requestJson<Policy>("POST", "/v1/sla-policies", {
      name,
      first_response_s: toSeconds(first),
      next_response_s: toSeconds(next),
      resolution_s: toSeconds(resolution),
      business_hours_only: businessHours,
      default: isDefault,
    });
    setBusy(null);
    if (result.ok) {
      setPolicies((list) => (result.data.default ? markDefault([...list, result.data], result.data.id) : [...list, result.data]));
      setName("");
      setFirst("");
      setNext("");
      setResolution("");
      setMessage({ tone: "ok", text: `SLA policy “${result.data.name}” created.` });
    } else if (result.status === 409) setErrors({ name: "A policy with this name already exists." });
    else {
      setErrors(result.fieldErrors);
      setMessage({ tone: "error", text: result.message });
    }
  }

  async function setDefault(policy: Policy, value: boolean) {
    setBusy(policy.id);
    const result = await requestJson<Policy>("PATCH", `/v1/sla-policies/${policy.id}`, { default: value });
    setBusy(null);
    if (result.ok) setPolicies((list) => markDefault(list, value ? policy.id : null));
    else setMessage({ tone: "error", text: result.message });
  }

  async function remove(policy: Policy) {
    setBusy(policy.id);
    const result = await requestJson("DELETE", `/v1/sla-policies/${policy.id}`);
    setBusy(null);
    if (result.ok || result.status === 404) setPolicies((list) => list.filter((p) => p.id !== policy.id));
    else setMessage({ tone: "error", text: result.message });
  }

  const minutesField = (label: string, fieldName: string, value: string, set: (v: string) => void, error?: string) => (
    <Field label={label} name={fieldName} type="number" min={1} inputMode="numeric" placeholder="No target" value={value} onChange={(e) => set(e.target.value)} error={error} className="flex-1" />
  );

  return (
    <div className="flex flex-col gap-4">
      {canEdit ? (
        <Card>
          <form onSubmit={create} className="flex flex-col gap-4" aria-label="New SLA policy">
            <Field label="Policy name" name="sla-name" value={name} maxLength={60} required onChange={(e) => setName(e.target.value)} error={errors.name} />
            <div className="flex flex-col gap-3 sm:flex-row">
              {minutesField("First response (minutes)", "sla-first", first, setFirst, errors.first_response_s)}
              {minutesField("Next response (minutes)", "sla-next", next, setNext, errors.next_response_s)}
              {minutesField("Resolution (minutes)", "sla-resolution", resolution, setResolution, errors.resolution_s)}
            </div>
            <label className="flex min-h-11 items-center gap-2 text-sm md:min-h-0">
              <input type="checkbox" checked={businessHours} onChange={(e) => setBusinessHours(e.target.checked)} className="h-5 w-5 md:h-4 md:w-4" />
              Count only opening hours (the clock pauses while the business is closed)
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm md:min-h-0">
              <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} className="h-5 w-5 md:h-4 md:w-4" />
              Apply to every new conversation
            </label>
            <div>
              <Button type="submit" className="min-h-11 md:min-h-0" disabled={busy === "create" || !name.trim()}>
                {busy === "create" ? "Creating…" : "Create SLA policy"}
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
        <ul aria-label="SLA policies" className="divide-y divide-slate-100">
          {policies.length === 0 ? <li className="p-6 text-center text-sm text-slate-500">No SLA policies yet.</li> : null}
          {policies.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm">
              <span className="font-medium">{p.name}</span>
              {p.default ? <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">Default</span> : null}
              <span className="text-slate-600">
                First {minutesText(p.first_response_s)} · Next {minutesText(p.next_response_s)} · Resolve {minutesText(p.resolution_s)}
                {p.business_hours_only ? " · opening hours" : " · around the clock"}
              </span>
              {canEdit ? (
                <span className="ml-auto flex gap-2">
                  <Button type="button" variant="secondary" className="min-h-11 px-2.5 py-1 md:min-h-0" disabled={busy === p.id} onClick={() => void setDefault(p, !p.default)}>
                    {p.default ? "Stop applying by default" : "Apply by default"}
                  </Button>
                  <Button type="button" variant="danger" className="min-h-11 px-2.5 py-1 md:min-h-0" disabled={busy === p.id} onClick={() => void remove(p)} aria-label={`Delete SLA policy ${p.name}`}>
                    Delete
                  </Button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
