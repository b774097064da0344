"use client";

import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { reportDatabaseUnavailable } from "@/components/pwa/database-outage";

/**
 * What a failed API request means, as a sentence in the reader's language. Error codes stay
 * English on the wire; each known code has a sentence in the `errors.code` namespace (keys are
 * the codes, the one dynamic-key pattern the catalog check allows), else the HTTP status decides.
 */
export function useApiErrorMessage() {
  const t = useTranslations("errors");
  return useCallback(
    (error: { status: number; code?: string }) => {
      // The page says so too (the shell's banner), until the database answers again; told after
      // this render or handler, as it updates other components.
      if (error.code === "service_unavailable") queueMicrotask(reportDatabaseUnavailable);
      const key = `code.${error.code ?? ""}`;
      if (error.code && t.has(key as "code.conflict")) return t(key as "code.conflict");
      if (error.status === 0) return t("status.offline");
      if (error.status === 401) return t("status.unauthenticated");
      if (error.status === 403) return t("status.forbidden");
      if (error.status === 413) return t("status.tooLarge");
      if (error.status === 429) return t("status.rateLimited");
      if (error.status >= 500) return t("status.server");
      return t("status.other", { status: error.status });
    },
    [t],
  );
}
