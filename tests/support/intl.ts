import { createTranslator, NextIntlClientProvider } from "next-intl";
import { createElement, type ReactNode } from "react";
import { readCatalog } from "@/i18n/messages";
import type { Locale } from "@/lib/platform/i18n/locales";

type ProviderProps = Omit<Parameters<typeof NextIntlClientProvider>[0], "children">;

/** A component as the app renders it: inside the provider of a locale's catalogs (English unless told). */
export function withIntl(element: ReactNode, locale: Locale = "en") {
  const props: ProviderProps = { locale, messages: readCatalog(locale), timeZone: "UTC" };
  return createElement(NextIntlClientProvider as (props: ProviderProps & { children?: ReactNode }) => ReactNode, props, element);
}

/**
 * `getTranslations` of `next-intl/server` outside a request, as a server component under test
 * calls it: the English catalogs (or a locale's). For `vi.mock("next-intl/server", …)`.
 */
export function serverTranslations(locale: Locale = "en") {
  const messages = readCatalog(locale);
  return {
    getTranslations: async (namespace?: string | { namespace?: string }) =>
      createTranslator({ locale, messages, namespace: (typeof namespace === "string" ? namespace : namespace?.namespace) as never }),
  };
}
