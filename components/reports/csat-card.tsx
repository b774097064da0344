import type { CsatSummary } from "@/lib/reports/schemas";

const scores = ["5", "4", "3", "2", "1"] as const;
const formatAverage = (value: number | null) => (value === null ? "—" : value.toLocaleString("en", { maximumFractionDigits: 2 }));

/** The survey's answers in the range: mean score, how many answered, and the count of each score. */
export function CsatCard({ csat }: { csat: CsatSummary }) {
  const most = Math.max(1, ...scores.map((score) => csat.distribution[score]));
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="stat-csat">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Customer satisfaction</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
        <span data-testid="csat-average">{formatAverage(csat.average)}</span>
        <span className="text-sm font-normal text-slate-500"> / 5</span>
      </p>
      <p className="mt-0.5 text-xs text-slate-500">
        <span data-testid="csat-responses">{csat.responses.toLocaleString("en")}</span> {csat.responses === 1 ? "answer" : "answers"}
      </p>
      <dl className="mt-3 flex flex-col gap-1" aria-label="Answers by score">
        {scores.map((score) => (
          <div key={score} className="flex items-center gap-2 text-xs">
            <dt className="w-3 text-slate-600">{score}</dt>
            <dd className="flex flex-1 items-center gap-2">
              <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden>
                <span className="block h-full rounded-full bg-amber-400" style={{ width: `${(csat.distribution[score] / most) * 100}%` }} />
              </span>
              <span className="w-6 text-right tabular-nums text-slate-700" data-testid={`csat-score-${score}`}>
                {csat.distribution[score]}
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
