import { createTranslator } from "next-intl";
import type { Locale } from "@/lib/platform/i18n/locales";
import { loadMessages, type Messages } from "./messages";

/**
 * A translator outside a request (emails, jobs): the same catalogs in a locale chosen by the
 * caller, since the recipient is not the person whose request is being served. Keys are full
 * paths (`emails.invitation.subject`).
 */
export function translatorFor(locale: Locale): (key: string, values?: Record<string, string | number>) => string {
  // The catalogs are read at run time, so their keys and arguments are not known to the type
  // checker: the translator is typed by what callers pass.
  return createTranslator<Messages, string>({ locale, messages: loadMessages(locale) }) as (key: string, values?: Record<string, string | number>) => string;
}
