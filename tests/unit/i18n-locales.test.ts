import { describe, expect, it } from "vitest";
import { matchAcceptLanguage } from "@/lib/platform/i18n/locales";

describe("the browser's Accept-Language", () => {
  it.each([
    ["es-AR,es;q=0.9,en;q=0.8", "es"],
    ["pt-BR,pt;q=0.9", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["en-US,en;q=0.9", "en"],
    ["fr-FR, de;q=0.9, es;q=0.5", "es"],
    ["en;q=0.2, pt;q=0.8", "pt-BR"],
    ["es;q=0, en", "en"],
  ])("%s → %s", (header, locale) => {
    expect(matchAcceptLanguage(header)).toBe(locale);
  });

  it.each([[null], [""], ["fr, de"], ["*"], [";;;,,,q=abc"], ["x".repeat(5000)]])("%s names no supported language", (header) => {
    expect(matchAcceptLanguage(header)).toBeNull();
  });
});
