"use client";

import { useEffect, useState } from "react";
import { Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";
import type { SlaReportOutput } from "@/lib/sla/report-schemas";

const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)} %`);

function AttainmentTable({ caption, rows }: { caption: string; rows: { key: string; name: string; met: number; breached: number; attainment: number | null }[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="px-1 pb-1 text-left text-xs font-medium text-slate-500">{caption}</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="px-1 py-1 text-left font-medium">Name</th>
            <th scope="col" className="px-1 py-1 text-right font-medium">Met</th>
            <th scope="col" className="px-1 py-1 text-right font-medium">Breached</th>
            <th scope="col" className="px-1 py-1 text-right font-medium">Attainment</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={4} className="px-1 py-3 text-center text-slate-500">
                No SLA targets met or missed in this range.
              </td>
            </tr>
          ) : null}
          {rows.map((r) => (
            <tr key={r.key}>
              <td className="px-1 py-2">{r.name}</td>
              <td className="px-1 py-2 text-right tabular-nums">{r.met}</td>
              <td className="px-1 py-2 text-right tabular-nums">{r.breached}</td>
              <td className="px-1 py-2 text-right font-medium tabular-nums">{percent(r.attainment)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** SLA attainment per policy and per person for the report's range (its own request, so the dashboard stays as it is). */
export function SlaAttainmentCard({ rangeQuery }: { rangeQuery: string | null }) {
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
      <h2 className="text-base font-semibold">SLA attainment</h2>
      <p className="mt-1 text-xs text-slate-500">Targets met and missed in the range, as they happened (a later reassignment changes nothing).</p>
      {data === "error" ? <p className="mt-3 text-sm text-red-700">The SLA report could not be loaded.</p> : null}
      {data && data !== "error" ? (
        <div className="mt-3 grid gap-4 md:grid-cols-2" data-testid="sla-attainment">
          <AttainmentTable caption="Per policy" rows={data.policies.map((p) => ({ key: p.policy_id, name: p.name ?? "Deleted policy", met: p.met, breached: p.breached, attainment: p.attainment }))} />
          <AttainmentTable caption="Per person" rows={data.agents.map((a) => ({ key: a.user_id ?? "none", name: a.name ?? "Unassigned", met: a.met, breached: a.breached, attainment: a.attainment }))} />
        </div>
      ) : null}
    </Card>
  );
}
