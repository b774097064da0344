"use client";

import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { formatDateTime } from "@/components/ui/format";
import { requestJson } from "@/lib/client/api";
import { StatusBadge } from "./status-badge";
import { CampaignProgress } from "./progress-bar";
import { type Campaign, formatCost, type Recipient } from "./types";

const filters = ["", "queued", "sent", "delivered", "read", "replied", "failed", "skipped"] as const;
const reasons: Record<string, string> = {
  no_consent: "No consent",
  opted_out: "Opted out",
  blocked: "Blocked",
  missing_variable: "Missing variable",
  cancelled: "Cancelled",
  interrupted: "Interrupted (not resent)",
};

/** One campaign: live progress, counts, pause/resume/cancel, and the recipients with a status filter. */
export function CampaignDetail({ id, canManage, onBack }: { id: string; canManage: boolean; onBack: () => void }) {
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const [recipients, setRecipients] = useState<Recipient[]>([]);
  const [filter, setFilter] = useState<(typeof filters)[number]>("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const [c, r] = await Promise.all([
      requestJson<Campaign>("GET", `/v1/campaigns/${id}`),
      requestJson<{ data: Recipient[] }>("GET", `/v1/campaigns/${id}/recipients?limit=100${filter ? `&status=${filter}` : ""}`),
    ]);
    if (c.ok) setCampaign(c.data);
    else setError(c.message);
    if (r.ok) setRecipients(r.data.data);
  }, [id, filter]);

  useEffect(() => {
    const timer = setTimeout(() => void load(), 0);
    return () => clearTimeout(timer);
  }, [load]);
  const live = campaign?.status === "sending" || campaign?.status === "scheduled";
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => void load(), 1500);
    return () => clearInterval(timer);
  }, [live, load]);

  async function act(verb: "pause" | "resume" | "cancel") {
    setBusy(true);
    const res = await requestJson<Campaign>("POST", `/v1/campaigns/${id}/${verb}`);
    setBusy(false);
    if (res.ok) {
      setCampaign(res.data);
      setError(null);
    } else setError(res.message);
  }

  if (!campaign) return <Card className="p-4 sm:p-6">{error ? <Alert>{error}</Alert> : <p className="text-sm text-slate-500">Loading…</p>}</Card>;
  const c = campaign.counts;
  const figures: [string, number][] = [
    ["Recipients", c.recipients],
    ["Queued", c.queued],
    ["Sent", c.sent],
    ["Delivered", c.delivered],
    ["Read", c.read],
    ["Replied", c.replied],
    ["Failed", c.failed],
    ["Skipped", c.skipped],
  ];
  return (
    <Card className="p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Button variant="ghost" className="min-h-11" onClick={onBack}>
          ← All campaigns
        </Button>
        <h2 className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900">{campaign.name}</h2>
        <StatusBadge status={campaign.status} />
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <p className="mb-3 text-sm text-slate-600">
        {campaign.template.name} ({campaign.template.language}) · {campaign.status === "scheduled" ? "starts" : "started"} {formatDateTime(campaign.send_at)} · estimated cost {formatCost(campaign.estimated_cost)}
      </p>
      <CampaignProgress counts={c} label="Campaign progress" />
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Counts">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900" data-count={label.toLowerCase()}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {canManage ? (
        <div className="mt-4 flex flex-wrap gap-3">
          {campaign.status === "sending" ? (
            <Button variant="secondary" className="min-h-11" disabled={busy} onClick={() => act("pause")}>
              Pause
            </Button>
          ) : null}
          {campaign.status === "paused" ? (
            <Button className="min-h-11" disabled={busy} onClick={() => act("resume")}>
              Resume
            </Button>
          ) : null}
          {["draft", "scheduled", "sending", "paused"].includes(campaign.status) ? (
            <Button variant="danger" className="min-h-11" disabled={busy} onClick={() => act("cancel")}>
              Cancel campaign
            </Button>
          ) : null}
        </div>
      ) : null}

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900">Recipients</h3>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Show
          <select className="min-h-11 rounded-md border border-slate-300 bg-white px-2 text-sm" value={filter} onChange={(e) => setFilter(e.target.value as (typeof filters)[number])}>
            {filters.map((f) => (
              <option key={f} value={f}>
                {f || "all"}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ul className="mt-2 divide-y divide-slate-100 text-sm" aria-label="Recipients">
        {recipients.map((r) => (
          <li key={r.contact_id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 flex-1 truncate text-slate-900">
              {r.name ?? "—"} <span className="text-slate-500">+{r.phone}</span>
            </span>
            <span className="text-slate-700">{r.status}</span>
            {r.reason ? <span className="text-xs text-slate-500">{reasons[r.reason] ?? r.reason}</span> : null}
          </li>
        ))}
        {!recipients.length ? <li className="py-2 text-slate-500">{campaign.status === "draft" || campaign.status === "scheduled" ? "Recipients are fixed when sending starts." : "None."}</li> : null}
      </ul>
    </Card>
  );
}
