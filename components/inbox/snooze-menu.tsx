"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { Popover } from "./popover";
import type { ConversationItem } from "./types";

const at = (base: Date, days: number, hour: number) => {
  const date = new Date(base);
  date.setDate(date.getDate() + days);
  date.setHours(hour, 0, 0, 0);
  return date;
};

/** The presets, in the agent's own time zone. */
function snoozePresets(now = new Date()) {
  const tonight = now.getHours() < 18 ? at(now, 0, 18) : at(now, 1, 18);
  const daysToMonday = ((8 - now.getDay()) % 7) || 7;
  return [
    { id: "hour", label: "hour", until: new Date(now.getTime() + 3_600_000) },
    { id: "tonight", label: now.getHours() < 18 ? "tonight" : "tomorrowEvening", until: tonight },
    { id: "tomorrow", label: "tomorrow", until: at(now, 1, 9) },
    { id: "next-week", label: "nextWeek", until: at(now, daysToMonday, 9) },
  ] as const;
}

const localInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** The conversation header's Snooze menu: presets or a chosen time, at most 90 days ahead. */
export function SnoozeMenu({ conversation, onConversation }: { conversation: ConversationItem; onConversation: (c: ConversationItem) => void }) {
  const [open, setOpen] = useState(false);
  const t = useTranslations("inbox.snooze");
  const s = useTranslations("inboxTools.snooze");
  const apiError = useApiErrorMessage();
  const format = useFormatter();
  const whenText = (date: Date) => format.dateTime(date, { weekday: "short", hour: "2-digit", minute: "2-digit", day: "numeric", month: "short" });
  const [custom, setCustom] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (conversation.status === "closed") return null;

  async function snooze(until: Date) {
    setBusy(true);
    setError(undefined);
    const result = await requestJson<ConversationItem>("POST", `/v1/conversations/${conversation.id}/snooze`, { until: until.toISOString() });
    setBusy(false);
    if (result.ok) {
      onConversation(result.data);
      setOpen(false);
    } else setError(result.status === 400 ? s("invalid") : apiError(result));
  }

  const now = new Date();
  return (
    <div className="relative">
      <Button type="button" variant="secondary" data-popover-trigger aria-expanded={open} onClick={() => setOpen((o) => !o)} className="px-2.5 py-1.5">
        {conversation.status === "snoozed" ? t("snoozed") : t("snooze")}
      </Button>
      <Popover open={open} onClose={() => setOpen(false)} label={s("title")}>
        <p className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{s("title")}</p>
        {conversation.status === "snoozed" && conversation.snoozed_until ? (
          <p className="mb-2 text-xs text-slate-600">{s("sleeping", { until: whenText(new Date(conversation.snoozed_until)) })}</p>
        ) : null}
        <ul className="flex flex-col">
          {snoozePresets(now).map((preset) => (
            <li key={preset.id}>
              <button
                type="button"
                disabled={busy}
                onClick={() => void snooze(preset.until)}
                className="flex w-full items-center justify-between rounded px-2 py-1.5 text-left text-sm hover:bg-slate-50 disabled:text-slate-400"
              >
                <span>{s(preset.label)}</span>
                <span className="text-xs text-slate-500">{whenText(preset.until)}</span>
              </button>
            </li>
          ))}
        </ul>
        <form
          className="mt-2 flex flex-col gap-2 border-t border-slate-100 pt-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (custom) void snooze(new Date(custom));
          }}
        >
          <label htmlFor="snooze-custom" className="text-xs font-medium text-slate-700">
            {s("custom")}
          </label>
          <div className="flex gap-2">
            <input
              id="snooze-custom"
              type="datetime-local"
              value={custom}
              min={localInput(now)}
              max={localInput(new Date(now.getTime() + 90 * 86_400_000))}
              onChange={(e) => setCustom(e.target.value)}
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm"
            />
            <Button type="submit" disabled={busy || !custom} className="px-2.5 py-1">
              {s("submit")}
            </Button>
          </div>
        </form>
        {busy ? <p className="mt-2 text-xs text-slate-500" role="status">{s("busy")}</p> : null}
        {error ? <p className="mt-2 text-xs text-red-700" role="alert">{error}</p> : null}
      </Popover>
    </div>
  );
}
