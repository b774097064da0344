"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { locales, type Locale } from "@/lib/platform/i18n/locales";
import { CardHeading } from "./card-heading";

// Each language is named in itself, so anyone finds their own whatever the page is in.
const endonyms: Record<Locale, string> = { en: "English", es: "Español", "pt-BR": "Português (Brasil)" };

/** The interface language of the signed-in person: saved at once, the page reloads in it. */
export function LanguageCard() {
  const t = useTranslations("account.language");
  const errorMessage = useApiErrorMessage();
  const current = useLocale();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();

  async function choose(locale: Locale) {
    setSaving(true);
    setError(undefined);
    const result = await requestJson("PATCH", "/v1/users/me", { locale });
    if (result.ok) {
      window.location.reload();
      return;
    }
    setSaving(false);
    setError(errorMessage(result));
  }

  return (
    <Card>
      <CardHeading title={t("title")} description={t("description")} notice={error} />
      <div className="mt-4 flex flex-col gap-1 sm:max-w-xs">
        <label htmlFor="interface-language" className="text-sm font-medium text-slate-700">
          {t("label")}
        </label>
        <select
          id="interface-language"
          value={(locales as readonly string[]).includes(current) ? current : ""}
          disabled={saving}
          aria-busy={saving}
          onChange={(event) => void choose(event.target.value as Locale)}
          className="min-h-11 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
        >
          {(locales as readonly string[]).includes(current) ? null : <option value="" />}
          {locales.map((locale) => (
            <option key={locale} value={locale} lang={locale} translate="no">
              {endonyms[locale]}
            </option>
          ))}
        </select>
      </div>
    </Card>
  );
}
