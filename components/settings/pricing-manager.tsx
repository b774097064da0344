"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { requestJson } from "@/lib/client/api";
import type { PricingOutput } from "@/lib/pricing/schemas";

/** The price table behind the template picker's estimates and the spend report; admins replace it with a CSV file. */
export function PricingManager({ initial, canEdit }: { initial: PricingOutput; canEdit: boolean }) {
  const [table, setTable] = useState(initial);
  const [notice, setNotice] = useState<{ tone: "error" | "success"; text: string }>();
  const [pending, setPending] = useState(false);
  const t = useTranslations("settingsTemplates.pricing");
  const errorMessage = useApiErrorMessage();

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("csv");
    if (!(file instanceof File) || file.size === 0) return setNotice({ tone: "error", text: t("chooseFile") });
    setPending(true);
    setNotice(undefined);
    const result = await requestJson<PricingOutput>("PUT", "/v1/config/pricing", { currency: String(form.get("currency") ?? "").trim().toUpperCase(), csv: await file.text() });
    setPending(false);
    if (!result.ok) return setNotice({ tone: "error", text: Object.values(result.fieldErrors)[0] ?? errorMessage(result) });
    setTable(result.data);
    setNotice({ tone: "success", text: t("replaced", { count: result.data.rates.length, currency: result.data.currency }) });
  }

  const countries = new Set(table.rates.map((r) => r.country_code)).size;
  return (
    <Card>
      <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="pricing-summary">
        {t("summary", { source: table.source === "default" ? "default" : "own", count: table.rates.length, countries, currency: table.currency })}
      </p>
      {notice ? (
        <div className="mt-3">
          <Alert tone={notice.tone}>{notice.text}</Alert>
        </div>
      ) : null}
      {canEdit ? (
        <form onSubmit={onSubmit} className="mt-4 flex flex-wrap items-end gap-3" noValidate>
          <div className="flex flex-col gap-1">
            <label htmlFor="pricing-currency" className="text-sm font-medium text-slate-700">
              {t("currency")}
            </label>
            <input id="pricing-currency" name="currency" defaultValue={table.currency} maxLength={3} className="w-24 rounded-md border border-slate-300 px-3 py-2 text-sm uppercase" />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor="pricing-csv" className="text-sm font-medium text-slate-700">
              {t("csv")}
            </label>
            <input id="pricing-csv" name="csv" type="file" accept=".csv,text/csv" className="text-sm" />
            <p className="text-xs text-slate-500">{t("csvHint")}</p>
          </div>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? t("uploading") : t("replace")}
          </Button>
        </form>
      ) : null}
    </Card>
  );
}
