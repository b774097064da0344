import type { useFormatter, useTranslations } from "next-intl";

type Formatter = ReturnType<typeof useFormatter>;
type FormatT = ReturnType<typeof useTranslations>;

/** The catalog namespace of the words these formats use ("just now", "never", size units). */
export const FORMAT_NAMESPACE = "format";

const toDate = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/**
 * Dates, times, relative times, numbers, sizes and durations in the reader's locale and time
 * zone, through `Intl` (next-intl's formatter). Made by `useAppFormat` in client components and
 * `getAppFormat` on the server.
 */
export function makeAppFormat(format: Formatter, t: FormatT) {
  return {
    /** "27 Nov 2026, 14:05" / "27 nov 2026, 14:05". */
    dateTime: (iso: string | Date | null | undefined) => (iso ? format.dateTime(toDate(iso), { dateStyle: "medium", timeStyle: "short" }) : "—"),
    /** "27 Nov 2026". */
    date: (iso: string | Date) => format.dateTime(toDate(iso), { dateStyle: "medium" }),
    /** "14:05" or "2:05 PM", as the locale writes a time of day. */
    clock: (iso: string | Date) => format.dateTime(toDate(iso), { hour: "2-digit", minute: "2-digit" }),
    /** "Thursday, 26 November": a thread's day separator within this year. */
    dayOfYear: (iso: string | Date) => format.dateTime(toDate(iso), { weekday: "long", day: "numeric", month: "long" }),
    /** "Thursday, 26 November 2026": a thread's day separator. */
    day: (iso: string | Date) => format.dateTime(toDate(iso), { weekday: "long", day: "numeric", month: "long", year: "numeric" }),
    /** "5 minutes ago", "hace 5 minutos", "há 5 minutos"; "just now" under a minute. */
    relative: (iso: string | Date | null | undefined, now: number | Date = Date.now()) => {
      if (!iso) return t("never");
      const then = toDate(iso);
      const nowDate = toDate(now);
      if (Math.abs(then.getTime() - nowDate.getTime()) < 60_000) return t("justNow");
      return format.relativeTime(then, nowDate);
    },
    number: (value: number) => format.number(value),
    /** "12.4 KB", "3,1 MB" (1 KB = 1,024 bytes). */
    bytes: (bytes: number) => {
      if (bytes < 1024) return t("bytes", { value: bytes });
      const units = ["kilobytes", "megabytes", "gigabytes"] as const;
      let value = bytes / 1024;
      let unit = 0;
      while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
      }
      return t(units[unit], { value: format.number(value, { maximumFractionDigits: value >= 100 ? 0 : 1 }) });
    },
    /** "45 s", "3 min 20 s", "2 h 5 min", "3 d 4 h"; "—" for none. */
    duration: (seconds: number | null | undefined) => {
      if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return "—";
      const total = Math.round(seconds);
      const unit = (value: number, name: "second" | "minute" | "hour" | "day") =>
        format.number(value, { style: "unit", unit: name, unitDisplay: "short" });
      if (total < 60) return unit(total, "second");
      const minutes = Math.floor(total / 60);
      if (minutes < 60) return total % 60 ? `${unit(minutes, "minute")} ${unit(total % 60, "second")}` : unit(minutes, "minute");
      const hours = Math.floor(minutes / 60);
      if (hours < 24) return minutes % 60 ? `${unit(hours, "hour")} ${unit(minutes % 60, "minute")}` : unit(hours, "hour");
      const days = Math.floor(hours / 24);
      return hours % 24 ? `${unit(days, "day")} ${unit(hours % 24, "hour")}` : unit(days, "day");
    },
  };
}
export type AppFormat = ReturnType<typeof makeAppFormat>;
