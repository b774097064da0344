import { z } from "zod";
import { type Language, languages } from "@/lib/platform/language/language";

export const weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof weekdays)[number];

export const hoursLanguages = languages;
export type HoursLanguage = Language;

const maxIntervalsPerDay = 6;
const dayMs = 86_400_000;

const openTimePattern = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
// "24:00" lets a day run to midnight without an overnight interval.
const closeTimePattern = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

function parseMinutes(time: string): number {
  const [hours, minutes] = time.split(":").map(Number);
  return hours * 60 + minutes;
}

export function isValidTimeZone(timeZone: string): boolean {
  // Intl also accepts offsets such as "+01:00" on newer runtimes; the profile stores IANA names only.
  if (!timeZone || /^[+-]/.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

const intervalSchema = z
  .object({
    open: z.string().regex(openTimePattern, { error: 'Use 24-hour "HH:MM" from 00:00 to 23:59' }).meta({ description: "Opening time, 24-hour HH:MM.", example: "09:00" }),
    close: z.string().regex(closeTimePattern, { error: 'Use 24-hour "HH:MM" from 00:01 to 24:00' }).meta({ description: "Closing time, 24-hour HH:MM (24:00 for midnight), later than `open`.", example: "18:00" }),
  })
  .refine((interval) => parseMinutes(interval.open) < parseMinutes(interval.close), {
    // Overnight hours are not one interval: the day model would be ambiguous about which weekday owns them.
    error: "Closing time must be later than opening time (split overnight hours across two days)",
    path: ["close"],
  });

const dayHoursSchema = z
  .array(intervalSchema)
  .max(maxIntervalsPerDay, { error: `At most ${maxIntervalsPerDay} intervals a day` })
  .superRefine((intervals, ctx) => {
    for (let later = 1; later < intervals.length; later++) {
      for (let earlier = 0; earlier < later; earlier++) {
        const a = intervals[earlier];
        const b = intervals[later];
        const overlaps = parseMinutes(a.open) < parseMinutes(b.close) && parseMinutes(b.open) < parseMinutes(a.close);
        if (overlaps) {
          ctx.addIssue({
            code: "custom",
            message: `Overlaps ${a.open}–${a.close} on the same day`,
            path: [later],
          });
          break;
        }
      }
    }
  });

const weeklyHoursSchema = z.strictObject({
  mon: dayHoursSchema.optional(),
  tue: dayHoursSchema.optional(),
  wed: dayHoursSchema.optional(),
  thu: dayHoursSchema.optional(),
  fri: dayHoursSchema.optional(),
  sat: dayHoursSchema.optional(),
  sun: dayHoursSchema.optional(),
});

export const hoursSchema = z
  .object({
    timezone: z.string().refine(isValidTimeZone, { error: "Unknown IANA time zone" }).meta({ description: "An IANA time zone.", example: "Europe/Madrid" }),
    weekly: weeklyHoursSchema.meta({ description: "Opening intervals per weekday (at most 6 a day, not overlapping); a missing or empty day is closed." }),
  })
  .meta({ description: "Opening hours in the business time zone." });
export type Hours = z.infer<typeof hoursSchema>;

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();

function getWallClockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallClockFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallClockFormatters.set(timeZone, formatter);
  }
  return formatter;
}

function getWallClock(instant: number, timeZone: string): WallClock {
  const values: Record<string, number> = {};
  for (const part of getWallClockFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") values[part.type] = Number(part.value);
  }
  return {
    year: values.year,
    month: values.month,
    day: values.day,
    // Some ICU versions print midnight as 24 even with h23.
    hour: values.hour % 24,
    minute: values.minute,
    second: values.second,
  };
}

function getOffsetMs(instant: number, timeZone: string): number {
  const wall = getWallClock(instant, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const wholeSecond = instant - (((instant % 1000) + 1000) % 1000);
  return wallAsUtc - wholeSecond;
}

/**
 * The instant at which the clocks of `timeZone` first show the given wall-clock time. A time repeated
 * when clocks fall back resolves to its first occurrence; a time skipped when clocks spring forward
 * resolves to the transition itself, the first instant that is not before it.
 */
function getInstantForWallClock({
  year,
  month,
  day,
  hour,
  minute,
  timeZone,
}: {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  timeZone: string;
}): number {
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  const offsets = new Set<number>([
    getOffsetMs(wallAsUtc - dayMs, timeZone),
    getOffsetMs(wallAsUtc, timeZone),
    getOffsetMs(wallAsUtc + dayMs, timeZone),
  ]);
  // Each guess can reveal the offset that is really in force there; two rounds settle any real zone.
  for (let round = 0; round < 2; round++) {
    for (const offset of [...offsets]) offsets.add(getOffsetMs(wallAsUtc - offset, timeZone));
  }

  const candidates = [...offsets].map((offset) => wallAsUtc - offset).sort((a, b) => a - b);
  const exact = candidates.filter((instant) => wallAsUtc - getOffsetMs(instant, timeZone) === instant);
  if (exact.length > 0) return exact[0];

  // Skipped time: the transition lies between the earliest and latest guesses; find it to the millisecond.
  let before = candidates[0];
  let after = candidates[candidates.length - 1];
  const offsetBefore = getOffsetMs(before, timeZone);
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (getOffsetMs(middle, timeZone) === offsetBefore) before = middle;
    else after = middle;
  }
  return after;
}

/**
 * The instant a wall-clock time of `timeZone` denotes ("2026-03-29 00:00 in Europe/Madrid"), with
 * the same rules for repeated and skipped times as opening hours: first occurrence, or the transition.
 */
export function zonedTimeToInstant(input: {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  timeZone: string;
}): Date {
  return new Date(getInstantForWallClock({ ...input, hour: input.hour ?? 0, minute: input.minute ?? 0 }));
}

function getWeekday({ year, month, day }: { year: number; month: number; day: number }): Weekday {
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekdays[(sundayFirst + 6) % 7];
}

function assertValidDate(at: Date): number {
  const instant = at.getTime();
  if (Number.isNaN(instant)) throw new RangeError("Invalid date");
  return instant;
}

function isOpenAtInstant(hours: Hours, instant: number): boolean {
  const wall = getWallClock(instant, hours.timezone);
  const minutes = wall.hour * 60 + wall.minute;
  const intervals = hours.weekly[getWeekday(wall)] ?? [];
  return intervals.some((interval) => parseMinutes(interval.open) <= minutes && minutes < parseMinutes(interval.close));
}

/** Whether the business is open at `at`, judged by the wall clock of its time zone. */
export function isOpenAt({ hours, at }: { hours: Hours; at: Date }): boolean {
  return isOpenAtInstant(hours, assertValidDate(at));
}

/**
 * The next instant strictly after `at` at which the business goes from closed to open. Back-to-back
 * intervals (12:00–14:00 then 14:00–18:00, or 24:00 into 00:00) are one opening. Null when the
 * business never opens, or never closes.
 */
export function nextOpeningAt({ hours, at }: { hours: Hours; at: Date }): Date | null {
  const from = assertValidDate(at);
  const today = getWallClock(from, hours.timezone);
  let best: number | null = null;

  // Eight days covers "same weekday next week" even when a DST change shifts the week by an hour.
  for (let dayOffset = 0; dayOffset <= 8 && best === null; dayOffset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + dayOffset));
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + 1;
    const day = date.getUTCDate();
    for (const interval of hours.weekly[getWeekday({ year, month, day })] ?? []) {
      const opensAt = parseMinutes(interval.open);
      const instant = getInstantForWallClock({
        year,
        month,
        day,
        hour: Math.floor(opensAt / 60),
        minute: opensAt % 60,
        timeZone: hours.timezone,
      });
      if (instant <= from || isOpenAtInstant(hours, instant - 1)) continue;
      if (best === null || instant < best) best = instant;
    }
  }
  return best === null ? null : new Date(best);
}

const hoursWords: Record<
  HoursLanguage,
  { today: string; tomorrow: string; closed: string; timeZone: string; nextWeek: (weekday: string) => string }
> = {
  en: { today: "today", tomorrow: "tomorrow", closed: "Closed", timeZone: "Time zone", nextWeek: (d) => `next ${d}` },
  es: { today: "hoy", tomorrow: "mañana", closed: "Cerrado", timeZone: "Zona horaria", nextWeek: (d) => `el próximo ${d}` },
  pt: {
    today: "hoje",
    tomorrow: "amanhã",
    closed: "Fechado",
    timeZone: "Fuso horário",
    // Portuguese weekdays are feminine ("segunda-feira") except sábado and domingo.
    nextWeek: (d) => (d.endsWith("feira") ? `na próxima ${d}` : `no próximo ${d}`),
  },
};

/** Maps any BCP 47 locale ("pt-BR", "es-419", "en") to a language the hours texts are written in. */
function resolveHoursLanguage(locale: string | null | undefined): HoursLanguage {
  const language = (locale ?? "").toLowerCase().split(/[-_]/)[0];
  return (hoursLanguages as readonly string[]).includes(language) ? (language as HoursLanguage) : "en";
}

function formatWeekdayName({ language, year, month, day }: { language: HoursLanguage; year: number; month: number; day: number }) {
  return new Intl.DateTimeFormat(language, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(year, month - 1, day));
}

function padTime(hour: number, minute: number): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** "Monday 09:00", "tomorrow 09:00", "lunes 09:00", "amanhã 09:00"... in the business time zone; null when it never opens. */
export function formatNextOpening({ hours, at, locale }: { hours: Hours; at: Date; locale: string }): string | null {
  const next = nextOpeningAt({ hours, at });
  if (!next) return null;
  const language = resolveHoursLanguage(locale);
  const words = hoursWords[language];
  const now = getWallClock(at.getTime(), hours.timezone);
  const then = getWallClock(next.getTime(), hours.timezone);
  const time = padTime(then.hour, then.minute);
  const daysAhead = Math.round(
    (Date.UTC(then.year, then.month - 1, then.day) - Date.UTC(now.year, now.month - 1, now.day)) / dayMs,
  );
  if (daysAhead === 0) return `${words.today} ${time}`;
  if (daysAhead === 1) return `${words.tomorrow} ${time}`;
  const weekday = formatWeekdayName({ language, ...then });
  return daysAhead >= 7 ? `${words.nextWeek(weekday)} ${time}` : `${weekday} ${time}`;
}

/** One line per day, Monday first, then the time zone; meant to be sent as a message. */
export function formatWeeklyHours({ hours, locale }: { hours: Hours; locale: string }): string {
  const language = resolveHoursLanguage(locale);
  const words = hoursWords[language];
  const lines = weekdays.map((weekday, index) => {
    // 2024-01-01 was a Monday.
    const name = formatWeekdayName({ language, year: 2024, month: 1, day: 1 + index });
    const intervals = [...(hours.weekly[weekday] ?? [])].sort((a, b) => parseMinutes(a.open) - parseMinutes(b.open));
    const text = intervals.length
      ? intervals.map((interval) => `${interval.open}–${interval.close}`).join(", ")
      : words.closed;
    return `${name.charAt(0).toLocaleUpperCase(language)}${name.slice(1)}: ${text}`;
  });
  lines.push(`${words.timeZone}: ${hours.timezone}`);
  return lines.join("\n");
}

/** The first line of the weekly-hours answer, in each language. */
export const hoursAnswerIntro: Record<HoursLanguage, string> = {
  en: "Our opening hours:",
  es: "Nuestro horario de atención:",
  pt: "Nosso horário de atendimento:",
};

const nextOpeningPhrases: Record<HoursLanguage, (when: string, zone: string) => string> = {
  en: (when, zone) => `Next opening: ${when} (${zone}).`,
  es: (when, zone) => `Próxima apertura: ${when} (${zone}).`,
  pt: (when, zone) => `Próxima abertura: ${when} (${zone}).`,
};

/** "Next opening: tomorrow 09:00 (Europe/Madrid)." in one language; null when it never opens. */
export function nextOpeningSentence({ hours, at, language }: { hours: Hours; at: Date; language: HoursLanguage }): string | null {
  const when = formatNextOpening({ hours, at, locale: language });
  return when ? nextOpeningPhrases[language](when, hours.timezone) : null;
}
