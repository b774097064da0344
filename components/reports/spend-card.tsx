"use client";

import { useEffect, useState } from "react";
import { Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";
import { formatPrice } from "@/lib/pricing/estimate";
import type { SpendOutput } from "@/lib/reports/schemas";

const label = (category: string) => category.charAt(0).toUpperCase() + category.slice(1);

/** What the network charged per month and category in the range, priced by the account's table. */
export function SpendCard({ query }: { query: string | null }) {
  const [state, setState] = useState<{ query: string; result: SpendOutput | string } | null>(null);
  useEffect(() => {
    if (!query) return;
    let current = true;
    void requestJson<SpendOutput>("GET", `/v1/reports/spend?${query}`).then((result) => {
      if (current) setState({ query, result: result.ok ? result.data : result.message });
    });
    return () => {
      current = false;
    };
  }, [query]);
  const loaded = state && state.query === query ? state.result : null;
  return (
    <Card className="p-4">
      <section aria-labelledby="spend-title" data-testid="spend-report">
        <h2 id="spend-title" className="text-sm font-semibold">
          Spend by month
        </h2>
        {loaded === null ? (
          <p className="mt-2 text-sm text-slate-500">Loading spend…</p>
        ) : typeof loaded === "string" ? (
          <p role="alert" className="mt-2 text-sm text-red-700">{loaded}</p>
        ) : loaded.months.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No billable messages in this range.</p>
        ) : (
          <table className="mt-2 w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th scope="col" className="py-1 font-medium">Month</th>
                <th scope="col" className="py-1 font-medium">Category</th>
                <th scope="col" className="py-1 text-right font-medium">Messages</th>
                <th scope="col" className="py-1 text-right font-medium">Spend ({loaded.currency})</th>
              </tr>
            </thead>
            <tbody>
              {loaded.months.flatMap((month) =>
                month.categories.map((category, index) => (
                  <tr key={`${month.month}-${category.category}`} className="border-t border-slate-100">
                    <td className="py-1">{index === 0 ? month.month : ""}</td>
                    <td className="py-1">{label(category.category)}</td>
                    <td className="py-1 text-right tabular-nums">{category.messages}</td>
                    <td className="py-1 text-right tabular-nums">{formatPrice(category.amount)}</td>
                  </tr>
                )),
              )}
              <tr className="border-t border-slate-300 font-semibold">
                <td className="py-1" colSpan={3}>Total</td>
                <td className="py-1 text-right tabular-nums" data-testid="spend-total">
                  {formatPrice(loaded.total)} {loaded.currency}
                </td>
              </tr>
            </tbody>
          </table>
        )}
        {loaded && typeof loaded !== "string" && loaded.unpriced_messages > 0 ? (
          <p className="mt-1 text-xs text-amber-800">{loaded.unpriced_messages} billable messages have no price in the table.</p>
        ) : null}
        <p className="mt-1 text-xs text-slate-500">Billable messages as the network reported them, priced by the table in Settings → Templates.</p>
      </section>
    </Card>
  );
}
