"use client";

import { useTranslations } from "next-intl";
import { useCallback, useRef, useState } from "react";
import { useDismiss } from "@/components/ui/use-dismiss";
import { desktopNotificationsSupported, enableDesktopNotifications, playChime, setNotifyPrefs, useNotifyPrefs } from "./notify";

/** The bell in the inbox toolbar: opt in to desktop notifications and a sound for new customer messages. */
export function AttentionSettings() {
  const t = useTranslations("inbox.attention");
  const prefs = useNotifyPrefs();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string>();
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useDismiss(open, root, close);

  async function toggleDesktop(on: boolean) {
    setNote(undefined);
    if (!on) return setNotifyPrefs({ desktop: false });
    if (!desktopNotificationsSupported()) return setNote(t("unsupported"));
    if (!(await enableDesktopNotifications())) setNote(t("blocked"));
  }

  const on = prefs.desktop || prefs.sound;
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="attention-settings"
        onClick={() => setOpen((o) => !o)}
        title={t("title")}
        className="grid h-8 w-8 place-items-center rounded-md border border-slate-300 text-slate-700 hover:bg-slate-50 max-md:h-11 max-md:w-11"
      >
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden>
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8M10 20a2 2 0 0 0 4 0" strokeLinecap="round" strokeLinejoin="round" />
          {on ? null : <path d="M3 3l18 18" strokeLinecap="round" />}
        </svg>
        <span className="sr-only">{t(on ? "on" : "off")}</span>
      </button>
      {open ? (
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
      ) : null}
    </div>
  );
}
