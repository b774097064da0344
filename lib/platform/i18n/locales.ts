import type { Language } from "@/lib/platform/language/language";

/** The languages the interface speaks, as BCP 47 tags (what `<html lang>` and `Intl` take). */
export const locales = ["en", "es", "pt-BR"] as const;
export type Locale = (typeof locales)[number];
export const DEFAULT_LOCALE: Locale = "en";

/**
 * Every catalog string wrapped in ⟦…⟧, generated from English: a page in this locale shows at a
 * glance (and a test finds) any text that did not come from a catalog. Never offered to users.
 */
export const PSEUDO_LOCALE = "en-XA";
export type AppLocale = Locale | typeof PSEUDO_LOCALE;

/** The cookie that turns the pseudo-locale on where it is allowed (see `pseudoLocaleAllowed`). */
export const PSEUDO_LOCALE_COOKIE = "chorus_pseudo_locale";

export const isLocale = (value: unknown): value is Locale => typeof value === "string" && (locales as readonly string[]).includes(value);

/** The interface locale for a business language (the customer-facing `pt` reads as Brazilian Portuguese). */
export const localeOfLanguage = (language: Language): Locale => (language === "pt" ? "pt-BR" : language);

/**
 * The best supported locale for an `Accept-Language` header, or null when it names none.
 * Ranges are taken by quality (ties in the order given); a language matches by its primary tag,
 * so `es-AR` is Spanish and `pt-PT` is Portuguese (Brazil), the only Portuguese offered.
 */
export function matchAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranges = header
    .slice(0, 1000)
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)).find(Boolean);
      const quality = q ? Number(q[1]) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.tag && range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranges) {
    const primary = tag.split("-")[0];
    if (primary === "en") return "en";
    if (primary === "es") return "es";
    if (primary === "pt") return "pt-BR";
  }
  return null;
}
