"use client";

import { useTranslations } from "next-intl";
import { useSyncExternalStore } from "react";
import { databaseUnavailableNow, subscribeDatabaseOutage } from "./database-outage";

/**
 * Says so while the server cannot reach its database (what a page loaded then says in full):
 * nothing on this page is lost, and it goes away by itself once the database answers again.
 */
export function DatabaseBanner() {
  const t = useTranslations("shell");
  const down = useSyncExternalStore(subscribeDatabaseOutage, databaseUnavailableNow, () => false);
  if (!down) return null;
  return (
    <div role="alert" className="shrink-0 border-b border-amber-200 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900">
      <h2 className="inline font-semibold">{t("databaseUnavailable.title")}</h2>{" "}
      <span>{t("databaseUnavailable.retrying")}</span>
    </div>
  );
}
