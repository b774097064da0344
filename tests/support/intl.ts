import { NextIntlClientProvider } from "next-intl";
import { createElement, type ReactNode } from "react";
import { readCatalog } from "@/i18n/messages";
import type { Locale } from "@/lib/platform/i18n/locales";

type ProviderProps = Omit<Parameters<typeof NextIntlClientProvider>[0], "children">;

/** A component as the app renders it: inside the provider of a locale's catalogs (English unless told). */
export function withIntl(element: ReactNode, locale: Locale = "en") {
  const props: ProviderProps = { locale, messages: readCatalog(locale), timeZone: "UTC" };
  return createElement(NextIntlClientProvider as (props: ProviderProps & { children?: ReactNode }) => ReactNode, props, element);
}
