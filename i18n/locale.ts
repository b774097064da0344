import "server-only";
import { cache } from "react";
import { cookies, headers } from "next/headers";
import { getCurrentSession } from "@/lib/server/session";
import { matchAcceptLanguage, PSEUDO_LOCALE, PSEUDO_LOCALE_COOKIE, type AppLocale, DEFAULT_LOCALE } from "@/lib/platform/i18n/locales";
import { interfaceLocaleOf } from "@/lib/users/locale";

/**
 * Whether this server may speak the pseudo-locale: `CHORUS_PSEUDO_LOCALE=1` lets the
 * `chorus_pseudo_locale=1` cookie switch a browser to it (test servers), `always` switches every
 * request, and a development server honours the cookie on its own. Production never does.
 */
function pseudoLocaleMode(): "off" | "cookie" | "always" {
  const setting = process.env.CHORUS_PSEUDO_LOCALE;
  if (setting === "always") return "always";
  if (setting === "1" || process.env.NODE_ENV === "development") return "cookie";
  return "off";
}

/**
 * The interface language of this request. No locale in the URL: the signed-in person's choice,
 * else (signed out) the browser's `Accept-Language`, else the account's business language, else
 * English. Computed once per request.
 */
export const resolveRequestLocale = cache(async (): Promise<AppLocale> => {
  const mode = pseudoLocaleMode();
  if (mode === "always") return PSEUDO_LOCALE;
  if (mode === "cookie" && (await cookies()).get(PSEUDO_LOCALE_COOKIE)?.value === "1") return PSEUDO_LOCALE;

  const session = await getCurrentSession().catch(() => null);
  if (session) return interfaceLocaleOf(session.db, { accountId: session.accountId, userId: session.user.id }).catch(() => DEFAULT_LOCALE);
  return matchAcceptLanguage((await headers()).get("accept-language")) ?? DEFAULT_LOCALE;
});
