"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { Cost } from "./types";

/** "≈ 12.40 EUR", "≈ 12,40 EUR (+3 sin precio)": an estimate in the reader's number format. */
export function useFormatCost() {
  const t = useTranslations("campaigns.cost");
  const format = useFormatter();
  return useCallback(
    (cost: Cost | null) => {
      if (!cost) return "—";
      const amount = format.number(cost.amount, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      return cost.unpriced ? t("unpriced", { amount, currency: cost.currency, count: cost.unpriced }) : t("estimate", { amount, currency: cost.currency });
    },
    [t, format],
  );
}
