"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useLiveEventListener } from "./live-bus";
import type { Teammate } from "./types";

const ANNOUNCE_EVERY_MS = 3_000;
export const TYPING_SHOWN_MS = 6_000;

/** Returns a function to call on every keystroke: it tells teammates at most every 3 s. */
export function useTypingAnnouncer(conversationId: string) {
  const last = useRef(0);
  return useCallback(() => {
    const now = Date.now();
    if (now - last.current < ANNOUNCE_EVERY_MS) return;
    last.current = now;
    void fetch(`/v1/conversations/${conversationId}/typing`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).catch(() => {});
  }, [conversationId]);
}

/** "Bruno is replying…" while a teammate types in this conversation, until 6 s after the last sign. */
export function TypingIndicator({ conversationId, me }: { conversationId: string; me: Teammate }) {
  const [typing, setTyping] = useState<Record<string, { name: string; until: number }>>({});
  useLiveEventListener((event) => {
    if (event.type !== "agent.typing") return;
    const data = event.data as { conversation_id?: string; user?: { id: string; name: string } };
    if (data.conversation_id !== conversationId || !data.user || data.user.id === me.id) return;
    // A replayed event from long ago (after a reconnect) shows nothing.
    if (Date.now() - new Date(event.created_at).getTime() > TYPING_SHOWN_MS) return;
    const user = data.user;
    setTyping((prev) => ({ ...prev, [user.id]: { name: user.name, until: Date.now() + TYPING_SHOWN_MS } }));
  });
  const names = Object.values(typing).map((t) => t.name);
  useEffect(() => {
    const entries = Object.values(typing);
    if (!entries.length) return;
    const next = Math.min(...entries.map((t) => t.until)) - Date.now();
    const timer = setTimeout(() => setTyping((prev) => Object.fromEntries(Object.entries(prev).filter(([, t]) => t.until > Date.now()))), Math.max(next, 0) + 50);
    return () => clearTimeout(timer);
  }, [typing]);
  const text = names.length === 0 ? "" : names.length === 1 ? `${names[0]} is replying…` : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} are replying…`;
  return (
    <p role="status" aria-live="polite" data-testid="typing-indicator" className={`px-4 text-xs italic text-slate-500 ${text ? "py-1" : "h-0 overflow-hidden"}`}>
      {text}
    </p>
  );
}
