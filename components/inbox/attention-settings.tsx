"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useCallback, useRef, useState } from "react";
import { useDismiss } from "@/components/ui/use-dismiss";
import { useNotifyPrefs } from "./notify";

// The choices are shown only after a tap: fetched then (or when a pointer or the focus reaches the button).
const loadPanel = () => import("./attention-settings-panel");
const AttentionSettingsPanel = dynamic(() => loadPanel().then((module) => module.AttentionSettingsPanel), { ssr: false });

/** The bell in the inbox toolbar: opt in to desktop notifications and a sound for new customer messages. */
export function AttentionSettings() {
  const t = useTranslations("inbox.attention");
  const prefs = useNotifyPrefs();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useDismiss(open, root, close);

  const on = prefs.desktop || prefs.sound;
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="attention-settings"
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
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
      {open ? <AttentionSettingsPanel prefs={prefs} /> : null}
    </div>
  );
}
