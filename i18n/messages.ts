import fs from "node:fs";
import path from "node:path";
import compile from "icu-minify/compile";
import type { CompiledMessage } from "icu-minify/format";
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

/** A catalog compiled for the browser: each message ready for next-intl's formatter without an ICU parser. */
export type CompiledMessages = { [key: string]: CompiledMessage | CompiledMessages };

const compiledCache = new Map<AppLocale, CompiledMessages>();

// The characters that mean something in an ICU message. A compiled text holding one is sent in an
// array, so that the server, which also formats ICU text, never takes it for a message to compile
// (i18n/format-message.ts).
const ICU_SYNTAX = /['{}<>#]/;

function compileCatalog(messages: Messages): CompiledMessages {
  const out: CompiledMessages = {};
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value !== "string") {
      out[key] = compileCatalog(value);
      continue;
    }
    const compiled = compile(value);
    out[key] = typeof compiled === "string" && ICU_SYNTAX.test(compiled) ? [compiled] : compiled;
  }
  return out;
}

/** The catalog of a locale as the browser gets it: compiled, so the page's script needs no ICU parser. */
export function compiledMessages(locale: AppLocale): CompiledMessages {
  const kept = compiledCache.get(locale);
  if (kept) return kept;
  // Through JSON: the compiler's objects have no prototype, which React will not hand to the browser.
  const compiled = JSON.parse(JSON.stringify(compileCatalog(loadMessages(locale)))) as CompiledMessages;
  if (process.env.NODE_ENV === "production") compiledCache.set(locale, compiled);
  return compiled;
}
