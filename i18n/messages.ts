import fs from "node:fs";
import path from "node:path";
import { DEFAULT_LOCALE, PSEUDO_LOCALE, type AppLocale, type Locale } from "@/lib/platform/i18n/locales";

/**
 * The catalogs: `messages/<locale>/<namespace>.json`, one file per namespace, so that people
 * adding strings to different areas never edit the same file. A locale's files are merged by
 * namespace (the file name is the top-level key). Read once per process.
 */
export type Messages = { [key: string]: string | Messages };

// Read at run time from the project folder (not bundled), so the bundler need not trace it.
const MESSAGES_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), "messages");

const cache = new Map<AppLocale, Messages>();

/** Every namespace of one real locale, read from disk. */
export function readCatalog(locale: Locale, dir = MESSAGES_DIR): Messages {
  const folder = path.join(dir, locale);
  const merged: Messages = {};
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith(".json")).sort()) {
    const namespace = file.slice(0, -".json".length);
    merged[namespace] = JSON.parse(fs.readFileSync(path.join(folder, file), "utf8")) as Messages;
  }
  return merged;
}

/** The pseudo-locale's catalog: every English string wrapped in ⟦…⟧ (placeholders kept). */
export function pseudoCatalog(english: Messages): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(english)) out[key] = typeof value === "string" ? `⟦${value}⟧` : pseudoCatalog(value);
  return out;
}

export function loadMessages(locale: AppLocale): Messages {
  const kept = cache.get(locale);
  if (kept) return kept;
  const messages = locale === PSEUDO_LOCALE ? pseudoCatalog(readCatalog(DEFAULT_LOCALE)) : readCatalog(locale);
  // A development server picks up edited catalogs on the next request.
  if (process.env.NODE_ENV === "production") cache.set(locale, messages);
  return messages;
}
