"use client";

import { useEffect } from "react";
import { TIME_ZONE_COOKIE } from "@/lib/platform/i18n/time-zone";

/** Tells the server the browser's time zone (a cookie), so later pages format times in it. */
export function TimeZoneCookie({ current }: { current: string }) {
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && zone !== current) document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
  }, [current]);
  return null;
}
