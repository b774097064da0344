"use client";

import { useCallback, useState } from "react";

/**
 * The reply being written in one conversation, kept on this device so a reload, a sign-in or a
 * switch to another conversation loses no word. The draft's Idempotency-Key is born with it and
 * goes with it into the outbox: however often the reply is retried, it is stored once.
 */
export type Draft = { text: string; fileName: string | null; idempotencyKey: string };

const keyOf = (conversationId: string) => `chorus.draft.v1.${conversationId}`;
const fresh = (): Draft => ({ text: "", fileName: null, idempotencyKey: crypto.randomUUID() });

function readDraft(conversationId: string): Draft {
  if (typeof window === "undefined") return fresh();
  try {
    const stored = JSON.parse(window.localStorage.getItem(keyOf(conversationId)) ?? "null") as Partial<Draft> | null;
    if (stored && typeof stored.text === "string" && typeof stored.idempotencyKey === "string") {
      return { text: stored.text, fileName: stored.fileName ?? null, idempotencyKey: stored.idempotencyKey };
    }
  } catch {
    // A damaged entry starts a new draft.
  }
  return fresh();
}

function writeDraft(conversationId: string, draft: Draft) {
  try {
    if (!draft.text && !draft.fileName) window.localStorage.removeItem(keyOf(conversationId));
    else window.localStorage.setItem(keyOf(conversationId), JSON.stringify(draft));
  } catch {
    // Storage unavailable (private mode, full): the draft lives as long as the page.
  }
}

export function useDraft(conversationId: string) {
  const [draft, setDraft] = useState<Draft>(() => readDraft(conversationId));
  const change = useCallback(
    (patch: Partial<Draft>) =>
      setDraft((current) => {
        const next = { ...current, ...patch };
        writeDraft(conversationId, next);
        return next;
      }),
    [conversationId],
  );
  /** After a send: the next reply is a new draft with a new key. */
  const startOver = useCallback(
    (keepText = "") => {
      const next = { ...fresh(), text: keepText };
      writeDraft(conversationId, next);
      setDraft(next);
      return next;
    },
    [conversationId],
  );
  return { draft, change, startOver };
}
