"use client";

import { useTranslations } from "next-intl";
import { useCallback, useRef, useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useDismiss } from "@/components/ui/use-dismiss";
import type { MessageItem } from "../types";
import { sendKind } from "./send-kind";

const EMOJIS = ["👍", "❤️", "😂", "😮", "🙏"];

/** Reply and react, beside a bubble. */
export function BubbleActions({
  conversationId,
  message,
  myNumber,
  onReply,
  onQueued,
}: {
  conversationId: string;
  message: MessageItem;
  myNumber: string | null;
  onReply: (message: MessageItem) => void;
  onQueued: (message: MessageItem) => void;
}) {
  const t = useTranslations("inboxDialogs.bubble");
  const apiError = useApiErrorMessage();
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string>();
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, root, close);
  if (message.local || message.deleted_at || message.status === "failed") return null;
  const mine = message.reactions?.find((r) => r.from === myNumber)?.emoji;

  async function react(emoji: string) {
    setOpen(false);
    setProblem(undefined);
    const result = await sendKind({ conversation_id: conversationId, type: "reaction", reaction: { message_id: message.id, emoji } });
    if (result.ok) onQueued(result.data);
    else setProblem(apiError(result));
  }

  return (
    <div ref={root} className="relative flex items-center gap-0.5">
      <button type="button" className="rounded-full px-1.5 py-1 text-xs text-slate-500 hover:bg-slate-200" aria-label={t("quote")} title={t("quoteTitle")} onClick={() => onReply(message)}>
        ↩︎
      </button>
      <button type="button" className="rounded-full px-1.5 py-1 text-xs text-slate-500 hover:bg-slate-200" aria-label={t("react")} title={t("reactTitle")} aria-expanded={open} onClick={() => setOpen(!open)}>
        ☺︎
      </button>
      {open ? (
        <div role="menu" className="absolute bottom-full z-10 mb-1 flex gap-1 rounded-full bg-white px-2 py-1 shadow-lg ring-1 ring-slate-200">
          {EMOJIS.map((emoji) => (
            <button key={emoji} type="button" role="menuitem" aria-label={t("reactWith", { emoji })} className={`rounded-full px-1 text-lg ${mine === emoji ? "bg-brand-100" : ""}`} onClick={() => void react(mine === emoji ? "" : emoji)}>
              {emoji}
            </button>
          ))}
        </div>
      ) : null}
      {problem ? (
        <span role="alert" className="absolute top-full z-10 mt-1 w-48 rounded bg-red-50 px-2 py-1 text-xs text-red-800">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
