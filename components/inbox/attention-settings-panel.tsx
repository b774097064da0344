"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { desktopNotificationsSupported, enableDesktopNotifications, playChime, setNotifyPrefs, type useNotifyPrefs } from "./notify";

/** The attention choices: desktop notifications and a sound for new customer messages. */
export function AttentionSettingsPanel({ prefs }: { prefs: ReturnType<typeof useNotifyPrefs> }) {
  const t = useTranslations("inbox.attention");
  const [note, setNote] = useState<string>();

  async function toggleDesktop(on: boolean) {
    setNote(undefined);
    if (!on) return setNotifyPrefs({ desktop: false });
    if (!desktopNotificationsSupported()) return setNote(t("unsupported"));
    if (!(await enableDesktopNotifications())) setNote(t("blocked"));
  }

  return (
    <div
      id="attention-settings"
      role="group"
      aria-label={t("title")}
      className="absolute right-0 top-full z-30 mt-2 flex w-[min(18rem,calc(100vw-1.5rem))] max-sm:fixed max-sm:inset-x-2 max-sm:top-28 max-sm:mt-0 max-sm:w-auto flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-lg"
    >
      <p className="text-xs text-slate-600">{t("description")}</p>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={prefs.desktop} onChange={(e) => void toggleDesktop(e.target.checked)} />
        {t("desktop")}
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={prefs.sound}
          onChange={(e) => {
            setNotifyPrefs({ sound: e.target.checked });
            if (e.target.checked) playChime();
          }}
        />
        {t("sound")}
      </label>
      {note ? (
        <p role="alert" className="text-xs text-amber-800">
          {note}
        </p>
      ) : null}
    </div>
  );
}
