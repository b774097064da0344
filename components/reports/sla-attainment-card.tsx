"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";
import type { SlaReportOutput } from "@/lib/sla/report-schemas";

function AttainmentTable({ caption, rows }: { caption: string; rows: { key: string; name: string; named: boolean; met: number; breached: number; attainment: number | null }[] }) {
  const t = useTranslations("reports.sla");
  const format = useFormatter();
  const percent = (value: number | null) => (value === null ? "—" : format.number(value, { style: "percent", maximumFractionDigits: 0 }));
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="px-1 pb-1 text-start text-xs font-medium text-slate-500">{caption}</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="px-1 py-1 text-start font-medium">{t("name")}</th>
            <th scope="col" className="px-1 py-1 text-end font-medium">{t("met")}</th>
            <th scope="col" className="px-1 py-1 text-end font-medium">{t("breached")}</th>
            <th scope="col" className="px-1 py-1 text-end font-medium">{t("attainment")}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="px-1 py-3 text-center text-slate-500">
                {t("empty")}
              </td>
            </tr>
          ) : null}
          {rows.map((r) => (
            <tr key={r.key}>
              <td className="px-1 py-2" {...(r.named ? { "data-user-content": true } : {})}>
                {r.name}
              </td>
              <td className="px-1 py-2 text-end tabular-nums">{r.met}</td>
              <td className="px-1 py-2 text-end tabular-nums">{r.breached}</td>
              <td className="px-1 py-2 text-end font-medium tabular-nums">{percent(r.attainment)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** SLA attainment per policy and per person for the report's range (its own request, so the dashboard stays as it is). */
export function SlaAttainmentCard({ rangeQuery }: { rangeQuery: string | null }) {
  const t = useTranslations("reports.sla");
  const [data, setData] = useState<SlaReportOutput | "error" | null>(null);
  useEffect(() => {
    if (!rangeQuery) return;
    let alive = true;
    void requestJson<SlaReportOutput>("GET", `/v1/reports/sla?${rangeQuery}`).then((r) => alive && setData(r.ok ? r.data : "error"));
    return () => {
      alive = false;
    };
  }, [rangeQuery]);
  return (
    <Card className="p-4">
      <h2 className="text-base font-semibold">{t("title")}</h2>
      <p className="mt-1 text-xs text-slate-500">{t("description")}</p>
      {data === "error" ? <p className="mt-3 text-sm text-red-700">{t("loadError")}</p> : null}
      {data && data !== "error" ? (
        <div className="mt-3 grid gap-4 md:grid-cols-2" data-testid="sla-attainment">
          <AttainmentTable caption={t("perPolicy")} rows={data.policies.map((p) => ({ key: p.policy_id, name: p.name ?? t("deletedPolicy"), named: p.name !== null, met: p.met, breached: p.breached, attainment: p.attainment }))} />
          <AttainmentTable caption={t("perPerson")} rows={data.agents.map((a) => ({ key: a.user_id ?? "none", name: a.name ?? t("unassigned"), named: a.name !== null, met: a.met, breached: a.breached, attainment: a.attainment }))} />
        </div>
      ) : null}
    </Card>
  );
}
