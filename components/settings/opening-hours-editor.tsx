"use client";

import { useFormatter, useLocale, useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { useBrowserTimeZone, useNow } from "@/components/ui/hooks";
import { formatNextOpening, type Hours, hoursSchema, isOpenAt, nextOpeningAt, type Weekday, weekdays } from "@/lib/profile/hours";
import type { BusinessProfileOutput } from "@/lib/profile/schemas";

// The opening-hours part of the business profile editor: a week of intervals, the time zone
// picker and a live preview of what customers are told.
export type Interval = { open: string; close: string };
export type Week = Record<Weekday, Interval[]>;
const MAX_INTERVALS = 6;
const toInput = (time: string) => (time === "24:00" ? "00:00" : time);
export const fromInput = (interval: Interval): Interval => ({ open: interval.open, close: interval.close === "00:00" ? "24:00" : interval.close });

const defaultWeek = (): Week => ({
  mon: [{ open: "09:00", close: "18:00" }],
  tue: [{ open: "09:00", close: "18:00" }],
  wed: [{ open: "09:00", close: "18:00" }],
  thu: [{ open: "09:00", close: "18:00" }],
  fri: [{ open: "09:00", close: "18:00" }],
  sat: [],
  sun: [],
});

export function weekFrom(hours: BusinessProfileOutput["hours"]): Week {
  if (!hours) return defaultWeek();
  return Object.fromEntries(weekdays.map((day) => [day, hours.weekly[day].map((i) => ({ open: i.open, close: toInput(i.close) }))])) as Week;
}

function nextInterval(intervals: Interval[]): Interval {
  const last = intervals[intervals.length - 1];
  if (!last) return { open: "09:00", close: "18:00" };
  const [h] = toInput(last.close).split(":").map(Number);
  const start = Math.min((last.close === "00:00" ? 24 : h) + 1, 22);
  return { open: `${String(start).padStart(2, "0")}:00`, close: `${String(start + 1).padStart(2, "0")}:00` };
}

// A Monday (1 January 2024), from which each weekday's name is read in the reader's language.
const weekdayDate = (day: Weekday) => new Date(Date.UTC(2024, 0, 1 + weekdays.indexOf(day), 12));

/** The weekday's name as Intl writes it in the reader's language. */
function useDayName(day: Weekday) {
  const format = useFormatter();
  return format.dateTime(weekdayDate(day), { weekday: "long", timeZone: "UTC" });
}

/** Zod issue paths of the hours, prefixed like the API's, so client and server errors land in the same places. */
export function hoursErrors(hours: unknown): Record<string, string> {
  const result = hoursSchema.safeParse(hours);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [["hours", ...issue.path.map(String)].join("."), issue.message]));
}

export function TimeZonePicker({
  id,
  value,
  zones,
  onChange,
  error,
}: {
  id: string;
  value: string;
  zones: string[];
  onChange: (zone: string) => void;
  error?: string;
}) {
  const [query, setQuery] = useState("");
  const browserZone = useBrowserTimeZone();
  const t = useTranslations("settingsProfile.hours");
  const filtered = useMemo(() => {
    const words = query.toLowerCase().replace(/[_/]/g, " ").split(/\s+/).filter(Boolean);
    const matches = zones.filter((zone) => {
      const name = zone.toLowerCase().replace(/[_/]/g, " ");
      return words.every((word) => name.includes(word));
    });
    return value && !matches.includes(value) ? [value, ...matches] : matches;
  }, [query, zones, value]);

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={`${id}-search`} className="text-sm font-medium text-slate-700">
        {t("searchZones")}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        placeholder={t("searchPlaceholder")}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
      />
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t("zone")}
      </label>
      <select
        id={id}
        size={6}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`rounded-md border bg-white px-2 py-1 text-sm ${error ? "border-red-400" : "border-slate-300"}`}
      >
        {filtered.map((zone) => (
          <option key={zone} value={zone} translate="no">
            {zone.replaceAll("_", " ")}
          </option>
        ))}
      </select>
      {filtered.length === 0 ? <p className="text-xs text-slate-500">{t("noZone", { query })}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
      {browserZone && browserZone !== value ? (
        <div>
          <Button type="button" variant="secondary" onClick={() => onChange(browserZone)}>
            {t("useMine", { zone: browserZone.replaceAll("_", " ") })}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

export function DayEditor({
  day,
  intervals,
  errors,
  onChange,
}: {
  day: Weekday;
  intervals: Interval[];
  errors: Record<string, string>;
  onChange: (intervals: Interval[]) => void;
}) {
  const t = useTranslations("settingsProfile.hours");
  const name = useDayName(day);
  const open = intervals.length > 0;
  const dayError = errors[`hours.weekly.${day}`];
  const update = (index: number, patch: Partial<Interval>) => onChange(intervals.map((interval, i) => (i === index ? { ...interval, ...patch } : interval)));
  return (
    <fieldset className="flex flex-col gap-2 border-b border-slate-100 py-3 last:border-b-0 sm:flex-row sm:items-start">
      <legend className="sr-only" translate="no">
        {name}
      </legend>
      <label className="flex w-40 shrink-0 items-center gap-2 pt-1.5 text-sm font-medium">
        <input type="checkbox" aria-label={t("openOn", { day: name })} checked={open} onChange={(event) => onChange(event.target.checked ? [{ open: "09:00", close: "18:00" }] : [])} className="h-4 w-4 accent-brand-600" />
        <span translate="no">{name}</span>
      </label>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        {!open ? <p className="pt-1.5 text-sm text-slate-500">{t("closed")}</p> : null}
        {intervals.map((interval, index) => {
          const prefix = `hours.weekly.${day}.${index}`;
          const error = errors[prefix] ?? errors[`${prefix}.open`] ?? errors[`${prefix}.close`];
          return (
            <div key={index} className="flex flex-col gap-1">
              <div className="flex flex-wrap items-center gap-2">
                <input
                  type="time"
                  aria-label={t("openingTime", { day: name, number: index + 1 })}
                  value={interval.open}
                  onChange={(event) => update(index, { open: event.target.value })}
                  aria-invalid={errors[`${prefix}.open`] || errors[prefix] ? true : undefined}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                  required
                />
                <span aria-hidden className="text-slate-400">
                  –
                </span>
                <input
                  type="time"
                  aria-label={t("closingTime", { day: name, number: index + 1 })}
                  value={interval.close}
                  onChange={(event) => update(index, { close: event.target.value })}
                  aria-invalid={errors[`${prefix}.close`] || errors[prefix] ? true : undefined}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                  required
                />
                {interval.close === "00:00" ? <span className="text-xs text-slate-500">{t("midnight")}</span> : null}
                <Button type="button" variant="ghost" className="px-2 py-1" aria-label={t("removeInterval", { day: name, number: index + 1 })} onClick={() => onChange(intervals.filter((_, i) => i !== index))}>
                  {t("remove")}
                </Button>
              </div>
              {error ? <p className="text-xs text-red-600">{error}</p> : null}
            </div>
          );
        })}
        {dayError ? <p className="text-xs text-red-600">{dayError}</p> : null}
        {open && intervals.length < MAX_INTERVALS ? (
          <div>
            <Button type="button" variant="ghost" className="px-2 py-1 text-brand-700" onClick={() => onChange([...intervals, nextInterval(intervals)])} aria-label={t("addOn", { day: name })}>
              {t("add")}
            </Button>
          </div>
        ) : null}
      </div>
    </fieldset>
  );
}

export function HoursPreview({ hours, hoursOn, errors }: { hours: Hours | null; hoursOn: boolean; errors: Record<string, string> }) {
  const now = useNow(30_000);
  const t = useTranslations("settingsProfile.hours");
  const locale = useLocale();
  const format = useFormatter();
  let content: React.ReactNode;
  if (!hoursOn) content = <p className="text-sm text-slate-600">{t("previewOff")}</p>;
  else if (!hours || Object.keys(errors).length) content = <p className="text-sm text-slate-600">{t("previewFix")}</p>;
  else if (!now) content = <p className="text-sm text-slate-600">{t("previewWaiting")}</p>;
  else {
    const open = isOpenAt({ hours, at: now });
    const nextAt = nextOpeningAt({ hours, at: now });
    const next = formatNextOpening({ hours, at: now, locale });
    content = (
      <div className="flex flex-col gap-1 text-sm">
        <p>
          <span className={`mr-2 inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ${open ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-700"}`}>
            <span aria-hidden className={`h-1.5 w-1.5 rounded-full ${open ? "bg-emerald-600" : "bg-slate-500"}`} />
            {open ? t("openNow") : t("closedNow")}
          </span>
          {open ? null : next && nextAt ? (
            <span>{t.rich("nextOpening", { when: () => <time dateTime={nextAt.toISOString()}>{next}</time> })}</span>
          ) : (
            <span>{t("noOpening")}</span>
          )}
        </p>
        <p className="text-xs text-slate-500">
          {t.rich("wallClock", {
            zone: hours.timezone.replaceAll("_", " "),
            time: () => (
              <time dateTime={now.toISOString()}>
                {format.dateTime(now, { timeZone: hours.timezone, weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })}
              </time>
            ),
          })}
        </p>
      </div>
    );
  }
  return (
    <div data-testid="hours-preview" aria-live="polite" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2">
      {content}
    </div>
  );
}

