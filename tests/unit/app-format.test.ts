import { createFormatter, createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { FORMAT_NAMESPACE, makeAppFormat } from "@/components/i18n/app-format";
import { loadMessages } from "@/i18n/messages";

/** The formats a reader of `locale` sees, made the way the app makes them (real catalogs, UTC). */
function formatsFor(locale: "en" | "es" | "pt-BR") {
  const format = createFormatter({ locale, timeZone: "UTC" });
  const t = createTranslator({ locale, messages: loadMessages(locale), namespace: FORMAT_NAMESPACE });
  return makeAppFormat(format as never, t as never);
}

const now = Date.parse("2026-11-24T12:00:00Z");

describe("relative times in the reader's language", () => {
  it.each([
    ["en", null, "never"],
    ["en", "2026-11-24T11:59:30Z", "just now"],
    ["en", "2026-11-24T11:55:00Z", "5 minutes ago"],
    ["en", "2026-11-24T14:00:00Z", "in 2 hours"],
    ["es", null, "nunca"],
    ["es", "2026-11-24T11:59:30Z", "ahora mismo"],
    ["es", "2026-11-24T11:55:00Z", "hace 5 minutos"],
    ["pt-BR", "2026-11-24T11:59:30Z", "agora mesmo"],
    ["pt-BR", "2026-11-24T11:55:00Z", "há 5 minutos"],
  ] as const)("%s %s → %s", (locale, iso, text) => {
    expect(formatsFor(locale).relative(iso, now)).toBe(text);
  });
});

describe("durations in the reader's language", () => {
  it.each([
    ["en", null, "—"],
    ["en", 44.6, "45 sec"],
    ["en", 200, "3 min 20 sec"],
    ["en", 7500, "2 hr 5 min"],
    ["es", 7500, "2 h 5 min"],
    ["pt-BR", 86_400 * 3 + 3600 * 4, "3 dias 4 h"],
  ] as const)("%s %s seconds → %s", (locale, seconds, text) => {
    expect(formatsFor(locale).duration(seconds).replace(/\u00a0/g, " ")).toBe(text);
  });
});

describe("times of day in the reader's language", () => {
  it("writes hours and minutes as the locale does", () => {
    expect(formatsFor("es").clock("2026-11-24T21:45:30Z")).toBe("21:45");
    expect(formatsFor("pt-BR").clock("2026-11-24T09:05:00Z")).toBe("09:05");
    expect(formatsFor("en").clock("2026-11-24T21:45:30Z")).toMatch(/^09:45\sPM$/);
  });
});
