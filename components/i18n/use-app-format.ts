"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useMemo } from "react";
import { FORMAT_NAMESPACE, makeAppFormat } from "./app-format";

/** The reader's formats (see makeAppFormat), for client components. */
export function useAppFormat() {
  const format = useFormatter();
  const t = useTranslations(FORMAT_NAMESPACE);
  return useMemo(() => makeAppFormat(format, t), [format, t]);
}
