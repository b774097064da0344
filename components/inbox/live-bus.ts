"use client";

import { useEffect, useRef } from "react";
import type { EventEnvelope } from "./types";

// The inbox opens one event stream; components that need a few event types listen here
// instead of each opening their own connection.
const listeners = new Set<(event: EventEnvelope) => void>();

export function publishLiveEvent(event: EventEnvelope) {
  for (const listener of listeners) listener(event);
}

/** Calls `handler` with every live event the inbox receives (the latest handler, without resubscribing). */
export function useLiveEventListener(handler: (event: EventEnvelope) => void) {
  const current = useRef(handler);
  useEffect(() => {
    current.current = handler;
  });
  useEffect(() => {
    const listener = (event: EventEnvelope) => current.current(event);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
}
