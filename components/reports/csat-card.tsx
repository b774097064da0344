"use client";

import { useFormatter, useTranslations } from "next-intl";
import type { CsatSummary } from "@/lib/reports/schemas";

const scores = ["5", "4", "3", "2", "1"] as const;

/** The survey's answers in the range: mean score, how many answered, and the count of each score. */
export function CsatCard({ csat }: { csat: CsatSummary }) {
  const t = useTranslations("reports.csat");
  const format = useFormatter();
  const most = Math.max(1, ...scores.map((score) => csat.distribution[score]));
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="stat-csat">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{t("title")}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
        <span data-testid="csat-average">{csat.average === null ? "—" : format.number(csat.average, { maximumFractionDigits: 2 })}</span>
        <span className="text-sm font-normal text-slate-500"> {t("outOf")}</span>
      </p>
      <p className="mt-0.5 text-xs text-slate-500">
        <span data-testid="csat-responses">{format.number(csat.responses)}</span> {t("answers", { count: csat.responses })}
      </p>
      <dl className="mt-3 flex flex-col gap-1" aria-label={t("byScore")}>
        {scores.map((score) => (
          <div key={score} className="flex items-center gap-2 text-xs">
            <dt className="w-3 text-slate-600">{score}</dt>
            <dd className="flex flex-1 items-center gap-2">
              <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden>
                <span className="block h-full rounded-full bg-amber-400" style={{ width: `${(csat.distribution[score] / most) * 100}%` }} />
              </span>
              <span className="w-6 text-end tabular-nums text-slate-700" data-testid={`csat-score-${score}`}>
                {csat.distribution[score]}
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
