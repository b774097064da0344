import type { Metadata, Viewport } from "next";
import type { AbstractIntlMessages } from "next-intl";
import { headers } from "next/headers";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTimeZone, getTranslations } from "next-intl/server";
import { compiledMessages } from "@/i18n/messages";
import { resolveRequestLocale } from "@/i18n/locale";
import { FieldErrorWording } from "@/components/i18n/field-error-wording";
import { TimeZoneCookie } from "@/components/time-zone-cookie";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("shell");
  return {
    title: { default: "Chorus", template: "%s · Chorus" },
    description: t("tagline"),
    appleWebApp: { capable: true, title: "Chorus", statusBarStyle: "default" },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#178059" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, so Next.js can put this request's CSP nonce
  // (set by proxy.ts) on its scripts; a prerendered page would carry none and not run.
  await headers();
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body>
        {/* The catalogs, locale and time zone of this request reach client components from here;
            the catalogs compiled, so the browser formats them without downloading an ICU parser. */}
        <NextIntlClientProvider messages={compiledMessages(await resolveRequestLocale()) as unknown as AbstractIntlMessages}>
          <TimeZoneCookie current={await getTimeZone()} />
          <FieldErrorWording />
          {children}
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
