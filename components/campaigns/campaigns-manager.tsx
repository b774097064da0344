"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { requestJson } from "@/lib/client/api";
import { CampaignDetail } from "./campaign-detail";
import { NewCampaignForm } from "./new-campaign-form";
import { StatusBadge } from "./status-badge";
import { CampaignProgress } from "./progress-bar";
import type { Campaign } from "./types";

/** The campaigns of the account: the list with progress, the create form, and one campaign's details. */
export function CampaignsManager({ canManage }: { canManage: boolean }) {
  const [campaigns, setCampaigns] = useState<Campaign[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const t = useTranslations("campaigns.list");
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();

  const load = useCallback(async () => {
    const res = await requestJson<{ data: Campaign[] }>("GET", "/v1/campaigns?limit=50");
    if (res.ok) {
      setCampaigns(res.data.data);
      setError(null);
    } else setError(errorMessage(res));
  }, [errorMessage]);

  useEffect(() => {
    const timer = setTimeout(() => void load(), 0);
    return () => clearTimeout(timer);
  }, [load]);
  // While one is sending, the list follows it.
  const active = campaigns?.some((c) => c.status === "sending" || c.status === "scheduled");
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void load(), 2000);
    return () => clearInterval(timer);
  }, [active, load]);

  if (selected) {
    return (
      <CampaignDetail
        id={selected}
        canManage={canManage}
        onBack={() => {
          setSelected(null);
          void load();
        }}
      />
    );
  }
  if (creating) {
    return (
      <NewCampaignForm
        onCancel={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          setSelected(id);
        }}
      />
    );
  }
  return (
    <Card className="p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
        {canManage ? (
          <Button className="min-h-11" onClick={() => setCreating(true)}>
            {t("new")}
          </Button>
        ) : (
          <p className="text-sm text-slate-500">{t("adminsOnly")}</p>
        )}
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {campaigns === null ? (
        <p className="text-sm text-slate-500">{t("loading")}</p>
      ) : campaigns.length === 0 ? (
        <p className="text-sm text-slate-600">{canManage ? t("emptyAdmin") : t("empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={t("title")}>
          {campaigns.map((c) => (
            <li key={c.id}>
              <button type="button" onClick={() => setSelected(c.id)} className="flex min-h-11 w-full flex-col gap-2 py-3 text-start hover:bg-slate-50 sm:flex-row sm:items-center sm:gap-4">
                <span className="min-w-0 flex-1">
                  <span className="flex items-center gap-2">
                    <span className="truncate font-medium text-slate-900" data-user-content>
                      {c.name}
                    </span>
                    <StatusBadge status={c.status} />
                  </span>
                  <span className="block truncate text-xs text-slate-500">
                    <span translate="no">{c.template.name}</span> · {c.send_at ? <time dateTime={c.send_at}>{format.dateTime(c.send_at)}</time> : t("created", { date: format.dateTime(c.created_at) })}
                  </span>
                </span>
                <span className="w-full sm:w-64">
                  <CampaignProgress counts={c.counts} label={t("progressOf", { name: c.name })} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
