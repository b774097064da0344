import { cookies } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { TIME_ZONE_COOKIE, validTimeZone } from "@/lib/platform/i18n/time-zone";
import { resolveRequestLocale } from "./locale";
import { loadMessages } from "./messages";

// next-intl without i18n routing: the locale is the request's (see ./locale.ts), never a URL segment.
export default getRequestConfig(async () => {
  const locale = await resolveRequestLocale();
  return {
    locale,
    messages: loadMessages(locale),
    // The browser's own zone (it reports it in a cookie, components/time-zone-cookie.tsx), so
    // server and browser format the same time the same way; UTC until it has.
    timeZone: validTimeZone((await cookies()).get(TIME_ZONE_COOKIE)?.value) ?? "UTC",
  };
});
