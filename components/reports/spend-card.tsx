"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";
import type { SpendOutput } from "@/lib/reports/schemas";

import { useApiErrorMessage } from "@/components/i18n/use-api-error";

/** What the network charged per month and category in the range, priced by the account's table. */
export function SpendCard({ query }: { query: string | null }) {
  const t = useTranslations("reports.spend");
  const format = useFormatter();
  const errorMessage = useApiErrorMessage();
  const [state, setState] = useState<{ query: string; result: SpendOutput | string } | null>(null);
  const categories: Record<string, string> = {
    marketing: t("categories.marketing"),
    utility: t("categories.utility"),
    authentication: t("categories.authentication"),
    service: t("categories.service"),
  };
  // Prices: two decimals, or two significant digits under a cent, in the reader's number format.
  const price = (value: number) =>
    value === 0 || value >= 0.01 ? format.number(value, { minimumFractionDigits: value === 0 ? 0 : 2, maximumFractionDigits: 2 }) : format.number(value, { maximumSignificantDigits: 2 });
  const month = (value: string) => format.dateTime(new Date(`${value}-15T12:00:00Z`), { month: "short", year: "numeric", timeZone: "UTC" });
  useEffect(() => {
    if (!query) return;
    let current = true;
    void requestJson<SpendOutput>("GET", `/v1/reports/spend?${query}`).then((result) => {
      if (current) setState({ query, result: result.ok ? result.data : errorMessage(result) });
    });
    return () => {
      current = false;
    };
  }, [query, errorMessage]);
  const loaded = state && state.query === query ? state.result : null;
  return (
    <Card className="p-4">
      <section aria-labelledby="spend-title" data-testid="spend-report">
        <h2 id="spend-title" className="text-sm font-semibold">
          {t("title")}
        </h2>
        {loaded === null ? (
          <p className="mt-2 text-sm text-slate-500">{t("loading")}</p>
        ) : typeof loaded === "string" ? (
          <p role="alert" className="mt-2 text-sm text-red-700">{loaded}</p>
        ) : loaded.months.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t("empty")}</p>
        ) : (
          <table className="mt-2 w-full text-sm">
            <thead>
              <tr className="text-start text-xs text-slate-500">
                <th scope="col" className="py-1 text-start font-medium">{t("month")}</th>
                <th scope="col" className="py-1 text-start font-medium">{t("category")}</th>
                <th scope="col" className="py-1 text-end font-medium">{t("messages")}</th>
                <th scope="col" className="py-1 text-end font-medium">{t("spend", { currency: loaded.currency })}</th>
              </tr>
            </thead>
            <tbody>
              {loaded.months.flatMap((row) =>
                row.categories.map((category, index) => (
                  <tr key={`${row.month}-${category.category}`} className="border-t border-slate-100">
                    <td className="py-1">{index === 0 ? <time dateTime={row.month}>{month(row.month)}</time> : ""}</td>
                    <td className="py-1">{categories[category.category] ?? category.category}</td>
                    <td className="py-1 text-end tabular-nums">{format.number(category.messages)}</td>
                    <td className="py-1 text-end tabular-nums">{price(category.amount)}</td>
                  </tr>
                )),
              )}
              <tr className="border-t border-slate-300 font-semibold">
                <td className="py-1" colSpan={3}>
                  {t("total")}
                </td>
                <td className="py-1 text-end tabular-nums" data-testid="spend-total">
                  {price(loaded.total)} <span translate="no">{loaded.currency}</span>
                </td>
              </tr>
            </tbody>
          </table>
        )}
        {loaded && typeof loaded !== "string" && loaded.unpriced_messages > 0 ? (
          <p className="mt-1 text-xs text-amber-800">{t("unpriced", { count: loaded.unpriced_messages })}</p>
        ) : null}
        <p className="mt-1 text-xs text-slate-500">{t("note")}</p>
      </section>
    </Card>
  );
}
