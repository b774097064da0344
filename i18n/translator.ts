import { createTranslator } from "next-intl";
import type { Locale } from "@/lib/platform/i18n/locales";
import { loadMessages } from "./messages";

/**
 * A translator outside a request (emails, jobs): the same catalogs in a locale chosen by the
 * caller, since the recipient is not the person whose request is being served.
 */
export function translatorFor(locale: Locale) {
  return createTranslator({ locale, messages: loadMessages(locale) });
}
