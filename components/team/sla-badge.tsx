"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";

type SlaState = { policy_id: string; kind: "first_response" | "next_response" | "resolution" | null; due_at: string | null; status: "ok" | "warning" | "breached" };

// Catalog keys (namespace teamControls.sla) of each clock.
const kindLabel = { first_response: "kind.first_response", next_response: "kind.next_response", resolution: "kind.resolution" } as const;

type Translate = ReturnType<typeof useTranslations>;

/** "12m", "3h 5m", "2d 4h" (in the reader's language): the largest two units. */
function formatCountdown(t: Translate, ms: number) {
  const minutes = Math.max(0, Math.round(Math.abs(ms) / 60_000));
  if (minutes < 60) return t("duration.minutes", { m: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t("duration.hours", { h: hours, m: minutes % 60 });
  return t("duration.days", { d: Math.floor(hours / 24), h: hours % 24 });
}

/** A clock that ticks every 30 s while a countdown is shown. */
function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

/**
 * The SLA countdown of a conversation: time left on the running target (amber from the 80 %
 * warning), or how long it is overdue (red). Nothing when no clock runs. A business-hours
 * clock's due time already skips the closed hours, so the countdown is the wall time until it.
 */
export function SlaBadge({ sla, className = "" }: { sla?: SlaState | null; className?: string }) {
  const running = Boolean(sla?.due_at && sla.kind);
  const now = useNow(running);
  const t = useTranslations("teamControls.sla");
  const format = useFormatter();
  if (!sla || !sla.due_at || !sla.kind) return null;
  const left = new Date(sla.due_at).getTime() - now;
  const overdue = sla.status === "breached" || left <= 0;
  const tone = overdue ? "bg-red-100 text-red-800" : sla.status === "warning" ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-700";
  const kind = t(kindLabel[sla.kind]);
  const text = overdue ? t("overdue", { kind, time: formatCountdown(t, left) }) : t("dueIn", { kind, time: formatCountdown(t, left) });
  return (
    <span
      data-testid="sla-badge"
      // The server's countdown may be a minute off the browser's by the time it hydrates.
      suppressHydrationWarning
      data-sla-status={overdue ? "breached" : sla.status}
      title={t("title", { kind: kind.toLocaleLowerCase(), date: format.dateTime(new Date(sla.due_at), { dateStyle: "medium", timeStyle: "short" }) })}
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium tabular-nums ${tone} ${className}`}
    >
      <svg aria-hidden viewBox="0 0 16 16" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth="1.6">
        <circle cx="8" cy="9" r="5.5" />
        <path d="M8 6v3l2 1.5M6.5 1.5h3" strokeLinecap="round" />
      </svg>
      {text}
    </span>
  );
}
