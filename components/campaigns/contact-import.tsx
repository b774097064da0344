"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";

type ImportResult = {
  preview: boolean;
  rows: number;
  valid: number;
  created: number;
  updated: number;
  errors: { line: number; column: string | null; message: string }[];
  sample: { line: number; phone: string; name: string | null; marketing_opt_in: boolean | null; exists: boolean }[];
};

const MAX_BYTES = 5 * 1024 * 1024;

/** Contacts from a CSV file: upload, a preview with every bad row, then the import. */
export function ContactImport() {
  const [csv, setCsv] = useState<string | null>(null);
  const [fileName, setFileName] = useState("");
  const [country, setCountry] = useState("");
  const [consent, setConsent] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useTranslations("campaigns.import");
  const errorMessage = useApiErrorMessage();

  async function run(preview: boolean, text = csv) {
    if (!text) return;
    setBusy(true);
    setError(null);
    const res = await requestJson<ImportResult>("POST", "/v1/contacts/import", {
      csv: text,
      preview,
      ...(country ? { default_country: country } : {}),
      ...(consent ? { marketing_opt_in: true } : {}),
    });
    setBusy(false);
    if (res.ok) setResult(res.data);
    else setError(res.fieldErrors.csv ?? errorMessage(res));
  }

  async function choose(file: File | undefined) {
    setResult(null);
    setError(null);
    if (!file) return;
    if (file.size > MAX_BYTES) return setError(t("tooLarge"));
    const text = await file.text();
    setCsv(text);
    setFileName(file.name);
    await run(true, text);
  }

  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">{t("title")}</h2>
      <p className="mt-1 text-sm text-slate-600">
        {t.rich("description", { code: (chunks) => <code translate="no">{chunks}</code> })}
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <label className="flex flex-1 flex-col gap-1 text-sm font-medium text-slate-700">
          {t("file")}
          <input type="file" accept=".csv,text/csv" className="min-h-11 text-sm" onChange={(e) => void choose(e.target.files?.[0])} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          {t("country")}
          <select className="min-h-11 rounded-md border border-slate-300 bg-white px-2 text-sm" value={country} onChange={(e) => setCountry(e.target.value)}>
            <option value="">{t("alwaysPlus")}</option>
            {["AR", "BR", "CL", "CO", "ES", "MX", "PE", "PT", "US", "GB", "DE", "FR", "IT"].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="mt-3 flex min-h-11 items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-5 w-5" checked={consent} onChange={(e) => setConsent(e.target.checked)} />
        {t("consent")}
      </label>
      {error ? <div className="mt-3"><Alert>{error}</Alert></div> : null}
      {result ? (
        <section aria-label={t("preview")} className="mt-4 text-sm">
          {result.preview ? (
            <p className="font-medium text-slate-900">
              {result.errors.length
                ? t("canImportProblems", { file: fileName, valid: result.valid, rows: result.rows, problems: result.errors.length })
                : t("canImport", { file: fileName, valid: result.valid, rows: result.rows })}
            </p>
          ) : (
            <Alert tone="success">
              {result.errors.length
                ? t("importedLeftOut", { valid: result.valid, created: result.created, updated: result.updated, leftOut: result.errors.length })
                : t("imported", { valid: result.valid, created: result.created, updated: result.updated })}
            </Alert>
          )}
          {result.errors.length ? (
            <ul className="mt-2 max-h-60 overflow-y-auto rounded-md border border-red-200 bg-red-50 p-2 text-red-800" aria-label={t("problems")}>
              {result.errors.map((e) => (
                <li key={`${e.line}-${e.column}`}>
                  {e.column ? t("lineColumn", { line: e.line, column: e.column }) : t("line", { line: e.line })}: <span translate="no">{e.message}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {result.preview && result.sample.length ? (
            <ul className="mt-2 grid gap-1 text-slate-700 sm:grid-cols-2" aria-label={t("firstRows")}>
              {result.sample.slice(0, 6).map((s) => (
                <li key={s.line} className="truncate">
                  <span translate="no">+{s.phone}</span> · <span data-user-content>{s.name ?? "—"}</span>
                  {s.exists ? ` ${t("updatesExisting")}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
          {result.preview && result.valid ? (
            <Button className="mt-3 min-h-11" disabled={busy} onClick={() => run(false)}>
              {t("importCount", { count: result.valid })}
            </Button>
          ) : null}
        </section>
      ) : null}
    </Card>
  );
}
