/** The cookie in which the browser tells the server its time zone, so both format times alike. */
export const TIME_ZONE_COOKIE = "chorus_tz";

/** A time zone `Intl` knows (an IANA name such as "America/Sao_Paulo"), else null. */
export function validTimeZone(value: string | undefined | null): string | null {
  if (!value || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
