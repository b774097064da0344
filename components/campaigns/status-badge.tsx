"use client";

import { useTranslations } from "next-intl";
import type { Campaign } from "./types";

const statusTone: Record<Campaign["status"], string> = {
  draft: "bg-slate-100 text-slate-700",
  scheduled: "bg-sky-100 text-sky-800",
  sending: "bg-emerald-100 text-emerald-800",
  paused: "bg-amber-100 text-amber-800",
  done: "bg-slate-800 text-white",
  cancelled: "bg-red-100 text-red-800",
};

export function StatusBadge({ status }: { status: Campaign["status"] }) {
  const t = useTranslations("campaigns.status");
  const label: Record<Campaign["status"], string> = {
    draft: t("draft"),
    scheduled: t("scheduled"),
    sending: t("sending"),
    paused: t("paused"),
    done: t("done"),
    cancelled: t("cancelled"),
  };
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${statusTone[status]}`}>{label[status]}</span>;
}
