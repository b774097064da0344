"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { requestJson } from "@/lib/client/api";
import { StatusBadge } from "./status-badge";
import { CampaignProgress } from "./progress-bar";
import { type Campaign, type Recipient } from "./types";
import { useFormatCost } from "./use-format-cost";

const filters = ["", "queued", "sent", "delivered", "read", "replied", "failed", "skipped"] as const;

/** One campaign: live progress, counts, pause/resume/cancel, and the recipients with a status filter. */
export function CampaignDetail({ id, canManage, onBack }: { id: string; canManage: boolean; onBack: () => void }) {
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const [recipients, setRecipients] = useState<Recipient[]>([]);
  const [filter, setFilter] = useState<(typeof filters)[number]>("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTranslations("campaigns");
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();
  const formatCost = useFormatCost();
  const reasons: Record<string, string> = {
    no_consent: t("reasons.no_consent"),
    opted_out: t("reasons.opted_out"),
    blocked: t("reasons.blocked"),
    missing_variable: t("reasons.missing_variable"),
    cancelled: t("reasons.cancelled"),
    interrupted: t("reasons.interrupted"),
  };
  const filterLabels: Record<(typeof filters)[number], string> = {
    "": t("filter.all"),
    queued: t("filter.queued"),
    sent: t("filter.sent"),
    delivered: t("filter.delivered"),
    read: t("filter.read"),
    replied: t("filter.replied"),
    failed: t("filter.failed"),
    skipped: t("filter.skipped"),
  };

  const load = useCallback(async () => {
    const [c, r] = await Promise.all([
      requestJson<Campaign>("GET", `/v1/campaigns/${id}`),
      requestJson<{ data: Recipient[] }>("GET", `/v1/campaigns/${id}/recipients?limit=100${filter ? `&status=${filter}` : ""}`),
    ]);
    if (c.ok) setCampaign(c.data);
    else setError(errorMessage(c));
    if (r.ok) setRecipients(r.data.data);
  }, [id, filter, errorMessage]);

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
    } else setError(errorMessage(res));
  }

  if (!campaign) return <Card className="p-4 sm:p-6">{error ? <Alert>{error}</Alert> : <p className="text-sm text-slate-500">{t("detail.loading")}</p>}</Card>;
  const c = campaign.counts;
  // [key kept for scripts and tests, label in the reader's language, value]
  const figures: [string, string, number][] = [
    ["recipients", t("figures.recipients"), c.recipients],
    ["queued", t("figures.queued"), c.queued],
    ["sent", t("figures.sent"), c.sent],
    ["delivered", t("figures.delivered"), c.delivered],
    ["read", t("figures.read"), c.read],
    ["replied", t("figures.replied"), c.replied],
    ["failed", t("figures.failed"), c.failed],
    ["skipped", t("figures.skipped"), c.skipped],
  ];
  const line = {
    template: campaign.template.name,
    language: campaign.template.language,
    date: format.dateTime(campaign.send_at),
    cost: formatCost(campaign.estimated_cost),
  };
  return (
    <Card className="p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <Button variant="ghost" className="min-h-11" onClick={onBack}>
          {t("detail.back")}
        </Button>
        <h2 className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900" data-user-content>
          {campaign.name}
        </h2>
        <StatusBadge status={campaign.status} />
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <p className="mb-3 text-sm text-slate-600">
        {campaign.status === "scheduled" ? t("detail.starts", line) : t("detail.started", line)}
      </p>
      <CampaignProgress counts={c} label={t("detail.progress")} />
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label={t("detail.counts")}>
        {figures.map(([key, label, value]) => (
          <div key={key} className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900" data-count={key}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {canManage ? (
        <div className="mt-4 flex flex-wrap gap-3">
          {campaign.status === "sending" ? (
            <Button variant="secondary" className="min-h-11" disabled={busy} onClick={() => act("pause")}>
              {t("detail.pause")}
            </Button>
          ) : null}
          {campaign.status === "paused" ? (
            <Button className="min-h-11" disabled={busy} onClick={() => act("resume")}>
              {t("detail.resume")}
            </Button>
          ) : null}
          {["draft", "scheduled", "sending", "paused"].includes(campaign.status) ? (
            <Button variant="danger" className="min-h-11" disabled={busy} onClick={() => act("cancel")}>
              {t("detail.cancel")}
            </Button>
          ) : null}
        </div>
      ) : null}

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <h3 className="text-sm font-semibold text-slate-900">{t("detail.recipients")}</h3>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          {t("detail.show")}
          <select className="min-h-11 rounded-md border border-slate-300 bg-white px-2 text-sm" value={filter} onChange={(e) => setFilter(e.target.value as (typeof filters)[number])}>
            {filters.map((f) => (
              <option key={f} value={f}>
                {filterLabels[f]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ul className="mt-2 divide-y divide-slate-100 text-sm" aria-label={t("detail.recipients")}>
        {recipients.map((r) => (
          <li key={r.contact_id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
            <span className="min-w-0 flex-1 truncate text-slate-900">
              <span data-user-content>{r.name ?? "—"}</span>{" "}
              <span className="text-slate-500" translate="no">
                +{r.phone}
              </span>
            </span>
            <span className="text-slate-700">{r.status in filterLabels ? filterLabels[r.status as (typeof filters)[number]] : r.status}</span>
            {r.reason ? <span className="text-xs text-slate-500">{reasons[r.reason] ?? r.reason}</span> : null}
          </li>
        ))}
        {!recipients.length ? <li className="py-2 text-slate-500">{campaign.status === "draft" || campaign.status === "scheduled" ? t("detail.fixedAtStart") : t("detail.none")}</li> : null}
      </ul>
    </Card>
  );
}
