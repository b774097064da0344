"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useQuoteLine } from "../message-kinds";
import type { ConversationItem, MessageItem } from "../types";
import { ButtonsDialog } from "./buttons-dialog";
import { LocationDialog } from "./location-dialog";
import { windowEnd } from "./send-kind";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { TemplateDialog } from "./template-dialog";

/** Re-renders every minute so the time left stays true. */
function useNow() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Around the composer: the customer-service window (time left, or closed with the template
 * picker instead of the free-form composer), the message being replied to, and the kinds
 * beyond text (location, reply buttons, template).
 */
export function ComposerBar({
  conversation,
  messages,
  replyTo,
  onClearReply,
  onQueued,
  secondaryOnPhone = true,
  children,
}: {
  conversation: ConversationItem;
  messages: MessageItem[];
  replyTo: MessageItem | null;
  onClearReply: () => void;
  onQueued: (message: MessageItem) => void;
  /** On a phone this row is a menu the reply box's ⋯ button opens. */
  secondaryOnPhone?: boolean;
  children: React.ReactNode;
}) {
  const t = useTranslations("inbox.window");
  const format = useAppFormat();
  const quoteLine = useQuoteLine();
  const now = useNow();
  const end = windowEnd(conversation.service_window_expires_at, messages);
  const closed = end !== null && end <= now;

  if (closed) {
    return (
      <div className="border-t border-slate-200 bg-white p-3" data-testid="window-closed">
        <p className="mb-2 text-sm text-slate-700">
          <span className="font-semibold">{t("closedTitle")}</span> {t("closedBody")}
        </p>
        <TemplateDialog conversation={conversation} onQueued={onQueued} label={t("sendTemplate")} prominent />
      </div>
    );
  }
  return (
    <div>
      <div className={`flex flex-wrap items-center gap-1 border-t border-slate-200 bg-white px-3 pt-2 text-xs max-md:[&_button]:min-h-11 ${secondaryOnPhone ? "" : "max-md:hidden"}`}>
        {end !== null ? (
          <span className="me-auto rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-800" data-testid="window-left" title={t("leftTitle")}>
            {t("left", { time: format.duration(Math.max(0, Math.floor((end - now) / 60_000)) * 60) })}
          </span>
        ) : (
          <span className="me-auto text-slate-500">{t("notYet")}</span>
        )}
        <LocationDialog conversation={conversation} onQueued={onQueued} />
        <ButtonsDialog conversation={conversation} onQueued={onQueued} />
        <TemplateDialog conversation={conversation} onQueued={onQueued} />
      </div>
      {replyTo ? (
        <div className="flex items-center gap-2 bg-white px-3 pt-2 text-xs" data-testid="reply-preview">
          <span className="min-w-0 flex-1 truncate border-s-4 border-brand-500 bg-slate-100 px-2 py-1">
            {t("replyingTo")}{" "}
            <span className="text-slate-700" data-user-content>
              {quoteLine(replyTo)}
            </span>
          </span>
          <button type="button" className="underline" onClick={onClearReply}>
            {t("cancelReply")}
          </button>
        </div>
      ) : null}
      {children}
    </div>
  );
}
