"use client";

import { useLocale, useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { requestJson } from "@/lib/client/api";
import { useLiveEventListener } from "./live-bus";
import type { Teammate } from "./types";

const ANNOUNCE_EVERY_MS = 3_000;
const TYPING_SHOWN_MS = 6_000;

/** Returns a function to call on every keystroke: it tells teammates at most every 3 s. */
export function useTypingAnnouncer(conversationId: string) {
  const last = useRef(0);
  return useCallback(() => {
    const now = Date.now();
    if (now - last.current < ANNOUNCE_EVERY_MS) return;
    last.current = now;
    // A lost typing signal only means teammates see nothing: no error is shown, and an ended
    // session is told by the reply being sent, not by the keystrokes before it.
    void requestJson("POST", `/v1/conversations/${conversationId}/typing`, {}, { reportsSessionEnd: false });
  }, [conversationId]);
}

type Typist = { name: string; conversationId: string; until: number };

/**
 * The teammates typing a reply now (anywhere, or in one conversation), by user id: each until
 * 6 s after their last sign. Someone typing is at work, whatever their connection says, so the
 * team panel counts them as online too.
 */
export function useTypingTeammates(me: string, conversationId?: string): Map<string, Typist> {
  const [typing, setTyping] = useState<Map<string, Typist>>(() => new Map());
  useLiveEventListener((event) => {
    if (event.type !== "agent.typing") return;
    const data = event.data as { conversation_id?: string; user?: { id: string; name: string } };
    if (!data.conversation_id || !data.user || data.user.id === me) return;
    if (conversationId && data.conversation_id !== conversationId) return;
    // A replayed event from long ago (after a reconnect) shows nothing.
    if (Date.now() - new Date(event.created_at).getTime() > TYPING_SHOWN_MS) return;
    const user = data.user;
    const typist = { name: user.name, conversationId: data.conversation_id, until: Date.now() + TYPING_SHOWN_MS };
    setTyping((prev) => new Map(prev).set(user.id, typist));
  });
  useEffect(() => {
    if (!typing.size) return;
    const next = Math.min(...[...typing.values()].map((t) => t.until)) - Date.now();
    const timer = setTimeout(() => setTyping((prev) => new Map([...prev].filter(([, t]) => t.until > Date.now()))), Math.max(next, 0) + 50);
    return () => clearTimeout(timer);
  }, [typing]);
  return typing;
}

/** "Bruno is replying…" while a teammate types in this conversation, until 6 s after the last sign. */
export function TypingIndicator({ conversationId, me }: { conversationId: string; me: Teammate }) {
  const t = useTranslations("inbox.typing");
  const locale = useLocale();
  const typing = useTypingTeammates(me.id, conversationId);
  const names = [...typing.values()].map((t) => t.name);
  const text = names.length === 0 ? "" : t("replying", { count: names.length, names: new Intl.ListFormat(locale, { type: "conjunction" }).format(names) });
  return (
    <p role="status" aria-live="polite" data-testid="typing-indicator" className={`px-4 text-xs italic text-slate-500 ${text ? "py-1" : "h-0 overflow-hidden"}`}>
      {text}
    </p>
  );
}
