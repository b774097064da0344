"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { CenteredCard } from "@/components/brand";

/** Any page that fails to render: say so plainly, offer to try again or go back to the inbox. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("errorPages.error");
  return (
    <CenteredCard className="text-center">
      <h1 className="text-xl font-semibold">{t("heading")}</h1>
      <p className="mt-2 text-sm text-slate-600">{t("body")}</p>
      {error.digest ? (
        <p className="mt-2 text-xs text-slate-500">
          {t.rich("reference", {
            digest: error.digest,
            code: (chunks) => (
              <span className="font-mono" translate="no">
                {chunks}
              </span>
            ),
          })}
        </p>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <button type="button" onClick={reset} className="inline-flex items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white hover:bg-brand-700">
          {t("retry")}
        </button>
        <Link href="/inbox" className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
          {t("inbox")}
        </Link>
      </div>
    </CenteredCard>
  );
}
