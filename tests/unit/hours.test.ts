import { describe, expect, it } from "vitest";
import { detectHoursQuestion, detectLanguage } from "@/lib/auto-replies/hours-question";
import {
  formatNextOpening,
  formatWeeklyHours,
  hoursSchema,
  isOpenAt,
  nextOpeningAt,
  type Hours,
  zonedTimeToInstant,
} from "@/lib/profile/hours";

const officeWeek = {
  mon: [{ open: "09:00", close: "18:00" }],
  tue: [{ open: "09:00", close: "18:00" }],
  wed: [{ open: "09:00", close: "18:00" }],
  thu: [{ open: "09:00", close: "18:00" }],
  fri: [{ open: "09:00", close: "18:00" }],
  sat: [{ open: "10:00", close: "14:00" }],
};

function officeHours(timezone: string): Hours {
  return hoursSchema.parse({ timezone, weekly: officeWeek });
}

function hoursIn(timezone: string, weekly: Hours["weekly"]): Hours {
  return hoursSchema.parse({ timezone, weekly });
}

const splitMonday = hoursIn("America/Sao_Paulo", {
  mon: [
    { open: "20:00", close: "23:30" },
    { open: "09:00", close: "13:00" },
    { open: "15:00", close: "19:00" },
  ],
});

describe("isOpenAt", () => {
  it.each([
    // zone, instant (UTC), open?, what the instant is on the local wall clock
    ["America/New_York", "2026-01-05T14:00:00Z", true, "Monday 09:00 EST, the opening minute"],
    ["America/New_York", "2026-01-05T13:59:00Z", false, "Monday 08:59 EST"],
    ["America/New_York", "2026-01-05T22:59:59Z", true, "Monday 17:59:59 EST"],
    ["America/New_York", "2026-01-05T23:00:00Z", false, "Monday 18:00 EST, closing is exclusive"],
    ["America/New_York", "2026-03-09T13:00:00Z", true, "Monday 09:00 EDT, the day after clocks sprang forward"],
    ["America/New_York", "2026-03-09T12:59:00Z", false, "Monday 08:59 EDT"],
    ["America/New_York", "2026-01-11T15:00:00Z", false, "Sunday 10:00, closed all day"],
    ["Europe/Madrid", "2026-03-27T07:00:00Z", false, "Friday 08:00 CET"],
    ["Europe/Madrid", "2026-03-27T08:00:00Z", true, "Friday 09:00 CET"],
    ["Europe/Madrid", "2026-03-30T07:00:00Z", true, "Monday 09:00 CEST"],
    ["Europe/Madrid", "2026-10-26T07:30:00Z", false, "Monday 08:30 CET after clocks fell back"],
    ["Europe/Madrid", "2026-10-26T08:00:00Z", true, "Monday 09:00 CET"],
    ["Asia/Tokyo", "2026-01-04T23:30:00Z", false, "Monday 08:30 JST while it is still Sunday in UTC"],
    ["Asia/Tokyo", "2026-01-05T00:30:00Z", true, "Monday 09:30 JST"],
    ["Asia/Tokyo", "2026-01-09T16:00:00Z", false, "Saturday 01:00 JST while it is Friday in UTC"],
    ["Asia/Tokyo", "2026-01-10T01:00:00Z", true, "Saturday 10:00 JST"],
    ["Asia/Tokyo", "2026-01-10T05:00:00Z", false, "Saturday 14:00 JST, Saturday closing"],
    ["America/Sao_Paulo", "2026-01-05T12:00:00Z", true, "Monday 09:00 BRT"],
    ["America/Sao_Paulo", "2026-01-05T21:00:00Z", false, "Monday 18:00 BRT"],
    ["Australia/Sydney", "2026-01-04T22:00:00Z", true, "Monday 09:00 AEDT"],
    ["Australia/Sydney", "2026-04-05T22:00:00Z", false, "Monday 08:00 AEST after daylight time ended"],
    ["Australia/Sydney", "2026-04-05T23:00:00Z", true, "Monday 09:00 AEST"],
    ["Australia/Sydney", "2026-10-04T22:00:00Z", true, "Monday 09:00 AEDT after daylight time started"],
  ])("%s at %s → open=%s (%s)", (zone, instant, open) => {
    expect(isOpenAt({ hours: officeHours(zone), at: new Date(instant) })).toBe(open);
  });

  it.each([
    ["2026-01-05T12:00:00Z", true, "09:00, first interval"],
    ["2026-01-05T16:30:00Z", false, "13:30, lunch break"],
    ["2026-01-05T18:00:00Z", true, "15:00, second interval"],
    ["2026-01-06T02:00:00Z", true, "Monday 23:00 local, already Tuesday in UTC"],
    ["2026-01-06T02:30:00Z", false, "Monday 23:30 local, third interval closed"],
    ["2026-01-06T12:00:00Z", false, "Tuesday 09:00, no hours on Tuesday"],
  ])("several intervals a day in São Paulo: %s → open=%s (%s)", (instant, open) => {
    expect(isOpenAt({ hours: splitMonday, at: new Date(instant) })).toBe(open);
  });

  it.each([
    // New York, Sunday 01:00–05:00; clocks jump from 02:00 EST to 03:00 EDT on 2026-03-08.
    ["America/New_York", "2026-03-08T06:30:00Z", true, "01:30 EST"],
    ["America/New_York", "2026-03-08T07:00:00Z", true, "03:00 EDT, right after the jump"],
    ["America/New_York", "2026-03-08T08:59:00Z", true, "04:59 EDT"],
    ["America/New_York", "2026-03-08T09:00:00Z", false, "05:00 EDT"],
    // Clocks fall back from 02:00 EDT to 01:00 EST on 2026-11-01: 01:30 happens twice.
    ["America/New_York", "2026-11-01T05:30:00Z", true, "01:30 EDT"],
    ["America/New_York", "2026-11-01T06:30:00Z", true, "01:30 EST"],
    ["America/New_York", "2026-11-01T09:59:00Z", true, "04:59 EST"],
    ["America/New_York", "2026-11-01T10:00:00Z", false, "05:00 EST"],
    ["America/New_York", "2026-11-01T04:59:00Z", false, "00:59 EDT"],
  ])("an interval crossing a DST change: %s %s → open=%s (%s)", (zone, instant, open) => {
    const hours = hoursIn(zone, { sun: [{ open: "01:00", close: "05:00" }] });
    expect(isOpenAt({ hours, at: new Date(instant) })).toBe(open);
  });

  it.each([
    ["2026-10-25T00:00:00Z", true, "02:00 CEST"],
    ["2026-10-25T01:00:00Z", true, "02:00 CET, the repeated hour"],
    ["2026-10-25T02:59:00Z", true, "03:59 CET"],
    ["2026-10-25T03:00:00Z", false, "04:00 CET"],
  ])("Madrid Sunday 02:00–04:00 on the day clocks fall back: %s → open=%s (%s)", (instant, open) => {
    const hours = hoursIn("Europe/Madrid", { sun: [{ open: "02:00", close: "04:00" }] });
    expect(isOpenAt({ hours, at: new Date(instant) })).toBe(open);
  });

  it("treats a day without intervals as closed and 24:00 as the end of the day", () => {
    const hours = hoursIn("UTC", { fri: [{ open: "18:00", close: "24:00" }] });
    expect(isOpenAt({ hours, at: new Date("2026-01-09T23:59:59Z") })).toBe(true);
    expect(isOpenAt({ hours, at: new Date("2026-01-10T00:00:00Z") })).toBe(false);
    expect(isOpenAt({ hours, at: new Date("2026-01-08T20:00:00Z") })).toBe(false);
  });
});

describe("nextOpeningAt", () => {
  it.each([
    ["America/New_York", "2026-01-10T20:00:00Z", "2026-01-12T14:00:00.000Z", "Saturday after closing → Monday 09:00 EST"],
    ["America/New_York", "2026-01-09T23:30:00Z", "2026-01-10T15:00:00.000Z", "Friday evening → Saturday 10:00 EST"],
    ["America/New_York", "2026-01-05T12:00:00Z", "2026-01-05T14:00:00.000Z", "Monday 07:00 → the same morning"],
    ["America/New_York", "2026-01-05T15:00:00Z", "2026-01-06T14:00:00.000Z", "while open → the next opening, Tuesday"],
    ["America/New_York", "2026-03-07T20:00:00Z", "2026-03-09T13:00:00.000Z", "weekend with the spring DST change → Monday 09:00 EDT"],
    ["America/New_York", "2026-10-31T20:00:00Z", "2026-11-02T14:00:00.000Z", "weekend with the autumn DST change → Monday 09:00 EST"],
    ["Europe/Madrid", "2026-03-28T14:00:00Z", "2026-03-30T07:00:00.000Z", "weekend with the spring DST change → Monday 09:00 CEST"],
    ["Europe/Madrid", "2026-10-24T13:00:00Z", "2026-10-26T08:00:00.000Z", "weekend with the autumn DST change → Monday 09:00 CET"],
    ["Asia/Tokyo", "2026-01-04T03:00:00Z", "2026-01-05T00:00:00.000Z", "Sunday noon → Monday 09:00 JST"],
    ["America/Sao_Paulo", "2026-01-10T18:00:00Z", "2026-01-12T12:00:00.000Z", "Saturday afternoon → Monday 09:00 BRT"],
    ["Australia/Sydney", "2026-04-04T05:00:00Z", "2026-04-05T23:00:00.000Z", "daylight time ends on Sunday → Monday 09:00 AEST"],
    ["Australia/Sydney", "2026-10-03T05:00:00Z", "2026-10-04T22:00:00.000Z", "daylight time starts on Sunday → Monday 09:00 AEDT"],
  ])("%s from %s → %s (%s)", (zone, from, expected) => {
    expect(nextOpeningAt({ hours: officeHours(zone), at: new Date(from) })?.toISOString()).toBe(expected);
  });

  it.each([
    ["2026-01-05T14:00:00Z", "2026-01-05T18:00:00.000Z", "11:00 → 15:00 after the lunch break"],
    ["2026-01-05T22:30:00Z", "2026-01-05T23:00:00.000Z", "19:30 → 20:00 the same evening"],
    ["2026-01-06T03:00:00Z", "2026-01-12T12:00:00.000Z", "after the last interval → next Monday 09:00"],
  ])("several intervals a day in São Paulo: from %s → %s (%s)", (from, expected) => {
    expect(nextOpeningAt({ hours: splitMonday, at: new Date(from) })?.toISOString()).toBe(expected);
  });

  it("moves an opening time that falls in the spring-forward gap to the first valid instant", () => {
    const newYork = hoursIn("America/New_York", { sun: [{ open: "02:30", close: "05:00" }] });
    // 02:30 does not exist on 2026-03-08: clocks jump from 02:00 EST to 03:00 EDT (07:00 UTC).
    expect(nextOpeningAt({ hours: newYork, at: new Date("2026-03-07T20:00:00Z") })?.toISOString()).toBe(
      "2026-03-08T07:00:00.000Z",
    );
    const madrid = hoursIn("Europe/Madrid", { sun: [{ open: "02:30", close: "04:00" }] });
    // 02:30 does not exist on 2026-03-29: clocks jump from 02:00 CET to 03:00 CEST (01:00 UTC).
    expect(nextOpeningAt({ hours: madrid, at: new Date("2026-03-28T12:00:00Z") })?.toISOString()).toBe(
      "2026-03-29T01:00:00.000Z",
    );
  });

  it("picks the first occurrence of an opening time repeated when clocks fall back", () => {
    const newYork = hoursIn("America/New_York", { sun: [{ open: "01:30", close: "03:00" }] });
    // 01:30 happens at 05:30 UTC (EDT) and again at 06:30 UTC (EST) on 2026-11-01.
    expect(nextOpeningAt({ hours: newYork, at: new Date("2026-10-31T20:00:00Z") })?.toISOString()).toBe(
      "2026-11-01T05:30:00.000Z",
    );
    const madrid = hoursIn("Europe/Madrid", { sun: [{ open: "02:15", close: "04:00" }] });
    // 02:15 happens at 00:15 UTC (CEST) and again at 01:15 UTC (CET) on 2026-10-25.
    expect(nextOpeningAt({ hours: madrid, at: new Date("2026-10-24T20:00:00Z") })?.toISOString()).toBe(
      "2026-10-25T00:15:00.000Z",
    );
  });

  it("treats back-to-back intervals and a day ending at 24:00 as one opening", () => {
    const hours = hoursIn("UTC", {
      mon: [
        { open: "09:00", close: "12:00" },
        { open: "12:00", close: "24:00" },
      ],
      tue: [{ open: "00:00", close: "02:00" }],
    });
    expect(nextOpeningAt({ hours, at: new Date("2026-01-05T10:00:00Z") })?.toISOString()).toBe("2026-01-12T09:00:00.000Z");
  });

  it("finds the same weekday of next week when the only opening today has passed", () => {
    const hours = hoursIn("Europe/Madrid", { wed: [{ open: "09:00", close: "13:00" }] });
    expect(nextOpeningAt({ hours, at: new Date("2026-01-07T13:00:00Z") })?.toISOString()).toBe("2026-01-14T08:00:00.000Z");
  });

  it("returns null when the business never opens or never closes", () => {
    expect(nextOpeningAt({ hours: hoursIn("UTC", {}), at: new Date("2026-01-05T10:00:00Z") })).toBeNull();
    const allDay = [{ open: "00:00", close: "24:00" }];
    const alwaysOpen = hoursIn("UTC", { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay });
    expect(nextOpeningAt({ hours: alwaysOpen, at: new Date("2026-01-05T10:00:00Z") })).toBeNull();
  });
});

describe("formatNextOpening", () => {
  it.each([
    ["America/New_York", "2026-01-10T20:00:00Z", "en", "Monday 09:00"],
    ["America/New_York", "2026-01-10T20:00:00Z", "es", "lunes 09:00"],
    ["America/New_York", "2026-01-10T20:00:00Z", "pt-BR", "segunda-feira 09:00"],
    ["America/New_York", "2026-01-09T23:30:00Z", "en", "tomorrow 10:00"],
    ["America/New_York", "2026-01-09T23:30:00Z", "es-MX", "mañana 10:00"],
    ["America/New_York", "2026-01-09T23:30:00Z", "pt", "amanhã 10:00"],
    ["America/New_York", "2026-01-05T12:00:00Z", "en-US", "today 09:00"],
    ["America/New_York", "2026-01-05T12:00:00Z", "es", "hoy 09:00"],
    ["America/New_York", "2026-01-05T12:00:00Z", "pt", "hoje 09:00"],
    // Monday 01:00 in Tokyo is still Sunday in UTC: "today" is the business's day.
    ["Asia/Tokyo", "2026-01-04T16:00:00Z", "en", "today 09:00"],
    ["Europe/Madrid", "2026-03-28T14:00:00Z", "es", "lunes 09:00"],
    ["Asia/Tokyo", "2026-01-04T16:00:00Z", "fr", "today 09:00"],
  ])("%s from %s in %s → %s", (zone, from, locale, expected) => {
    expect(formatNextOpening({ hours: officeHours(zone), at: new Date(from), locale })).toBe(expected);
  });

  it.each([
    ["en", "next Monday 09:00"],
    ["es", "el próximo lunes 09:00"],
    ["pt", "na próxima segunda-feira 09:00"],
  ])("names the same weekday a week ahead unambiguously in %s", (locale, expected) => {
    const hours = hoursIn("America/Sao_Paulo", { mon: [{ open: "09:00", close: "12:00" }] });
    expect(formatNextOpening({ hours, at: new Date("2026-01-05T16:00:00Z"), locale })).toBe(expected);
  });

  it("returns null when there is no opening to announce", () => {
    expect(formatNextOpening({ hours: hoursIn("UTC", {}), at: new Date(), locale: "en" })).toBeNull();
  });
});

describe("formatWeeklyHours", () => {
  const hours = hoursIn("Europe/Madrid", {
    tue: [
      { open: "16:00", close: "20:00" },
      { open: "09:00", close: "13:30" },
    ],
    mon: [{ open: "09:00", close: "18:00" }],
    sat: [{ open: "10:00", close: "14:00" }],
  });

  it.each([
    [
      "en",
      [
        "Monday: 09:00–18:00",
        "Tuesday: 09:00–13:30, 16:00–20:00",
        "Wednesday: Closed",
        "Thursday: Closed",
        "Friday: Closed",
        "Saturday: 10:00–14:00",
        "Sunday: Closed",
        "Time zone: Europe/Madrid",
      ],
    ],
    [
      "es",
      [
        "Lunes: 09:00–18:00",
        "Martes: 09:00–13:30, 16:00–20:00",
        "Miércoles: Cerrado",
        "Jueves: Cerrado",
        "Viernes: Cerrado",
        "Sábado: 10:00–14:00",
        "Domingo: Cerrado",
        "Zona horaria: Europe/Madrid",
      ],
    ],
    [
      "pt-BR",
      [
        "Segunda-feira: 09:00–18:00",
        "Terça-feira: 09:00–13:30, 16:00–20:00",
        "Quarta-feira: Fechado",
        "Quinta-feira: Fechado",
        "Sexta-feira: Fechado",
        "Sábado: 10:00–14:00",
        "Domingo: Fechado",
        "Fuso horário: Europe/Madrid",
      ],
    ],
  ])("lists Monday to Sunday and the time zone in %s", (locale, lines) => {
    expect(formatWeeklyHours({ hours, locale }).split("\n")).toEqual(lines);
  });
});

describe("hoursSchema", () => {
  it("accepts a valid week, with missing days meaning closed", () => {
    const result = hoursSchema.safeParse({
      timezone: "America/Sao_Paulo",
      weekly: { mon: [{ open: "09:00", close: "12:00" }, { open: "12:00", close: "24:00" }], sun: [] },
    });
    expect(result.success).toBe(true);
  });

  it("accepts up to six intervals a day and rejects a seventh", () => {
    const intervals = Array.from({ length: 7 }, (_, index) => ({
      open: `${String(index * 2).padStart(2, "0")}:00`,
      close: `${String(index * 2 + 1).padStart(2, "0")}:00`,
    }));
    expect(hoursSchema.safeParse({ timezone: "UTC", weekly: { fri: intervals.slice(0, 6) } }).success).toBe(true);
    const issues = hoursSchema.safeParse({ timezone: "UTC", weekly: { fri: intervals } }).error?.issues ?? [];
    expect(issues.map((issue) => issue.path)).toEqual([["weekly", "fri"]]);
  });

  it.each([
    ["an unknown time zone", { timezone: "Mars/Olympus_Mons", weekly: {} }, ["timezone"], /time zone/i],
    ["an empty time zone", { timezone: "", weekly: {} }, ["timezone"], /time zone/i],
    ["an offset instead of a zone", { timezone: "+01:00", weekly: {} }, ["timezone"], /time zone/i],
    ["a single-digit hour", { timezone: "UTC", weekly: { mon: [{ open: "9:00", close: "18:00" }] } }, ["weekly", "mon", 0, "open"], /HH:MM/],
    ["hour 25", { timezone: "UTC", weekly: { tue: [{ open: "09:00", close: "25:00" }] } }, ["weekly", "tue", 0, "close"], /HH:MM/],
    ["24:00 as an opening time", { timezone: "UTC", weekly: { tue: [{ open: "24:00", close: "24:00" }] } }, ["weekly", "tue", 0, "open"], /HH:MM/],
    ["minute 60", { timezone: "UTC", weekly: { wed: [{ open: "09:60", close: "18:00" }] } }, ["weekly", "wed", 0, "open"], /HH:MM/],
    [
      "an inverted interval",
      { timezone: "UTC", weekly: { mon: [{ open: "09:00", close: "12:00" }, { open: "18:00", close: "09:00" }] } },
      ["weekly", "mon", 1, "close"],
      /later than opening/,
    ],
    ["an empty interval", { timezone: "UTC", weekly: { thu: [{ open: "10:00", close: "10:00" }] } }, ["weekly", "thu", 0, "close"], /later than opening/],
    [
      "overlapping intervals",
      { timezone: "UTC", weekly: { mon: [{ open: "09:00", close: "13:00" }, { open: "12:00", close: "18:00" }] } },
      ["weekly", "mon", 1],
      /Overlaps 09:00–13:00/,
    ],
    [
      "an interval inside another, listed first",
      { timezone: "UTC", weekly: { sat: [{ open: "10:00", close: "11:00" }, { open: "14:00", close: "15:00" }, { open: "08:00", close: "20:00" }] } },
      ["weekly", "sat", 2],
      /Overlaps 10:00–11:00/,
    ],
    ["an unknown day", { timezone: "UTC", weekly: { monday: [] } }, ["weekly"], /monday/],
  ])("rejects %s on the right path", (_name, input, path, message) => {
    const result = hoursSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error?.issues.find((candidate) => JSON.stringify(candidate.path) === JSON.stringify(path));
    expect(issue, JSON.stringify(result.error?.issues)).toBeDefined();
    expect(issue?.message).toMatch(message);
  });
});

describe("detectHoursQuestion", () => {
  it.each([
    ["What time do you open tomorrow?", "en"],
    ["when do you close today", "en"],
    ["What are your opening hours?", "en"],
    ["Are you open on Sundays?", "en"],
    ["r u open now??", "en"],
    ["Hi! what's your business hours", "en"],
    ["What time does the store close on Saturday?", "en"],
    ["Until what time are you open?", "en"],
    ["Do you open on holidays?", "en"],
    ["HOURS?", "en"],
    ["Horario?", "es"],
    ["Hola, ¿cuál es el horario de atención?", "es"],
    ["a que hora abren", "es"],
    ["¿A qué hora cierran hoy?", "es"],
    ["¿Están abiertos el domingo?", "es"],
    ["hasta qué hora atienden?", "es"],
    ["¿Abren los sábados?", "es"],
    ["Buenas, cuándo abren?", "es"],
    ["Qual é o horário?", "pt"],
    ["que horas abre a loja?", "pt"],
    ["Vocês abrem amanhã?", "pt"],
    ["Qual o horário de funcionamento?", "pt"],
    ["Até que horas vocês atendem?", "pt"],
    ["Oi! Vocês estão abertos hoje?", "pt"],
    ["Quando fecham?", "pt"],
    ["horario de funcionamento", "pt"],
  ])("%s → %s", (text, language) => {
    expect(detectHoursQuestion(text)).toBe(language);
  });

  it.each([
    "I opened the box and the lamp is broken",
    "my order number is 5",
    "Can you open a ticket for me?",
    "The package arrived open.",
    "Are you open to a partial refund?",
    "What time is it in Madrid?",
    "When will my order arrive?",
    "Do you open the parcels before shipping?",
    "Abrí la caja y falta una pieza",
    "¿Cuándo llega mi pedido?",
    "El pedido está abierto en el sistema",
    "Que horas são?",
    "Quando chega meu pedido?",
    "Meu pedido chegou aberto",
    "",
    "👍",
  ])("ignores %j", (text) => {
    expect(detectHoursQuestion(text)).toBeNull();
  });
});

describe("detectLanguage", () => {
  it.each([
    ["What time do you open?", "en"],
    ["¿A qué hora abren mañana?", "es"],
    ["Vocês abrem amanhã?", "pt"],
    ["", "en"],
  ])("%j → %s", (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it.each([
    ["ok", "es", "es"],
    ["👍", "pt", "pt"],
    ["", "es", "es"],
    ["Hola, ¿tienen envíos?", "pt", "es"],
    ["Thanks!", "es", "en"],
  ])("%j with fallback %s → %s", (text, fallback, language) => {
    expect(detectLanguage(text, fallback as "es" | "pt")).toBe(language);
  });
});

describe("zonedTimeToInstant", () => {
  it.each([
    // wall clock, zone, instant
    ["2026-01-15 00:00", "UTC", "2026-01-15T00:00:00.000Z"],
    ["2026-01-15 00:00", "America/Sao_Paulo", "2026-01-15T03:00:00.000Z"],
    ["2026-07-01 00:00", "Europe/Madrid", "2026-06-30T22:00:00.000Z"],
    ["2026-01-01 00:00", "Asia/Kolkata", "2025-12-31T18:30:00.000Z"],
    // Madrid springs forward at 02:00 on 2026-03-29: 02:30 does not exist and resolves to 03:00 CEST.
    ["2026-03-29 02:30", "Europe/Madrid", "2026-03-29T01:00:00.000Z"],
    // New York falls back at 02:00 on 2026-11-01: 01:30 happens twice, the first one counts.
    ["2026-11-01 01:30", "America/New_York", "2026-11-01T05:30:00.000Z"],
  ])("%s in %s is %s", (wall, timeZone, expected) => {
    const [date, time] = wall.split(" ");
    const [year, month, day] = date.split("-").map(Number);
    const [hour, minute] = time.split(":").map(Number);
    expect(zonedTimeToInstant({ year, month, day, hour, minute, timeZone }).toISOString()).toBe(expected);
  });
});
