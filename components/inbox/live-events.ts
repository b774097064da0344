"use client";

import { startTransition, useEffect, useRef, useState } from "react";
import { requestJson } from "@/lib/client/api";
import type { EventEnvelope } from "./types";

export type LiveState = "connecting" | "live" | "reconnecting" | "offline";

// After this long without a connection the indicator stops saying "Reconnecting…".
const OFFLINE_AFTER_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * The account's live events over one EventSource, kept alive: the browser's own reconnect
 * resends Last-Event-ID; when the stream is refused (a 401, a restart mid-answer) a new one
 * is opened with `last_event_id`, so whatever happened meanwhile is replayed. The state is
 * what the indicator shows; `onResume` runs after a reconnection.
 */
export function useLiveEvents({ onEvent, onResume }: { onEvent: (event: EventEnvelope) => void; onResume?: () => void }): LiveState {
  const [state, setState] = useState<LiveState>("connecting");
  const handlers = useRef({ onEvent, onResume });
  useEffect(() => {
    handlers.current = { onEvent, onResume };
  });

  useEffect(() => {
    let source: EventSource | null = null;
    let lastEventId: string | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let offlineTimer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let everOpen = false;
    let stopped = false;

    const markDown = () => {
      if (!navigator.onLine) {
        setState("offline");
        return;
      }
      setState((current) => (current === "offline" ? current : everOpen ? "reconnecting" : "connecting"));
      if (!offlineTimer) offlineTimer = setTimeout(() => setState("offline"), OFFLINE_AFTER_MS);
    };

    const connect = () => {
      clearTimeout(retryTimer);
      source?.close();
      const params = new URLSearchParams({ presence: "1" });
      if (lastEventId) params.set("last_event_id", lastEventId);
      const current = new EventSource(`/v1/events/stream?${params}`);
      source = current;
      current.onopen = () => {
        clearTimeout(offlineTimer);
        offlineTimer = undefined;
        failures = 0;
        const resumed = everOpen;
        everOpen = true;
        // The indicator re-renders the whole inbox: an interruptible update, never a long task.
        startTransition(() => setState("live"));
        if (resumed) handlers.current.onResume?.();
      };
      current.onmessage = (event) => {
        if (event.lastEventId) lastEventId = event.lastEventId;
        try {
          handlers.current.onEvent(JSON.parse(event.data) as EventEnvelope);
        } catch {
          // a malformed frame is skipped; the next one still counts
        }
      };
      current.onerror = () => {
        markDown();
        // CONNECTING: the browser retries by itself, with Last-Event-ID. CLOSED: it gave up.
        if (current.readyState !== EventSource.CLOSED) return;
        current.close();
        void scheduleRetry();
      };
    };

    const scheduleRetry = async () => {
      failures += 1;
      // A refused stream may mean the session ended: asking once makes the sign-in prompt appear.
      const probe = await requestJson("GET", "/api/inbox/counts");
      if (stopped) return;
      if (probe.status === 401) {
        setState("offline");
        return; // signing in reloads the page, which starts a new stream
      }
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures - 1, 5));
      retryTimer = setTimeout(connect, delay);
    };

    const onOnline = () => connect();
    const onOffline = () => setState("offline");
    const onVisible = () => {
      if (document.visibilityState === "visible" && source?.readyState === EventSource.CLOSED) connect();
    };
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
    document.addEventListener("visibilitychange", onVisible);
    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearTimeout(offlineTimer);
      source?.close();
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);

  return state;
}
