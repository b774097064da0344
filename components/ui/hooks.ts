"use client";

import { useCallback, useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * The current time, refreshed every `stepMs` and rounded down to it; null during server rendering
 * so that nothing time-dependent is rendered before hydration.
 */
export function useNow(stepMs = 30_000): Date | null {
  const subscribe = useCallback(
    (notify: () => void) => {
      const timer = setInterval(notify, Math.min(stepMs, 5_000));
      return () => clearInterval(timer);
    },
    [stepMs],
  );
  const tick = useSyncExternalStore(subscribe, () => Math.floor(Date.now() / stepMs) * stepMs, () => null);
  return tick === null ? null : new Date(tick);
}

/** The browser's IANA time zone, or null during server rendering. */
export function useBrowserTimeZone(): string | null {
  return useSyncExternalStore(never, () => Intl.DateTimeFormat().resolvedOptions().timeZone, () => null);
}

/**
 * False during server rendering and until React has attached its handlers in the browser; a
 * control that only works with script stays disabled until then, so an early tap is not lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(never, () => true, () => false);
}
