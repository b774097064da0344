"use client";

import { useTranslations } from "next-intl";

/**
 * What the conversation pane shows while a conversation is being opened, also while the
 * conversation view's code is still on its way: that wait stays inside the pane, so the inbox
 * takes the choice (the address, the list's selection, the next shortcut) at once.
 */
export function ConversationOpening() {
  const t = useTranslations("inbox");
  return (
    <div className="grid flex-1 place-items-center p-8 text-center text-sm text-slate-500" aria-busy="true">
      {t("opening")}
    </div>
  );
}
