import { NextIntlClientProvider } from "next-intl";
import { createElement, type ReactNode } from "react";
import { readCatalog } from "@/i18n/messages";
import type { Locale } from "@/lib/platform/i18n/locales";

/** A component as the app renders it: inside the provider of a locale's catalogs (English unless told). */
export const withIntl = (element: ReactNode, locale: Locale = "en") =>
  createElement(NextIntlClientProvider, { locale, messages: readCatalog(locale), timeZone: "UTC", children: element });
