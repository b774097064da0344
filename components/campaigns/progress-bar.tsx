"use client";

import { useFormatter, useTranslations } from "next-intl";
import { type Counts, progressOf } from "./types";

/** How far a campaign got: settled recipients out of all, with the sent share in the brand colour. */
export function CampaignProgress({ counts, label }: { counts: Counts; label: string }) {
  const t = useTranslations("campaigns.progress");
  const format = useFormatter();
  const done = progressOf(counts);
  const sent = counts.recipients ? (counts.sent / counts.recipients) * 100 : 0;
  const parts = [t("summary", { percent: format.number(done / 100, { style: "percent" }), sent: counts.sent, recipients: counts.recipients })];
  if (counts.skipped) parts.push(t("skipped", { count: counts.skipped }));
  if (counts.failed) parts.push(t("failed", { count: counts.failed }));
  return (
    <div>
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={done} className="relative h-2.5 w-full overflow-hidden rounded-full bg-slate-100">
        <div className="absolute inset-y-0 start-0 bg-slate-300" style={{ width: `${done}%` }} />
        <div className="absolute inset-y-0 start-0 bg-brand-600" style={{ width: `${sent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">{parts.join(" · ")}</p>
    </div>
  );
}
