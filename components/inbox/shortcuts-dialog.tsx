"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";

// What each key does: keys of the `inbox.shortcuts` catalog namespace.
const shortcutList: { keys: string; does: string }[] = [
  { keys: "j", does: "next" },
  { keys: "k", does: "previous" },
  { keys: "/", does: "search" },
  { keys: "a", does: "assign" },
  { keys: "e", does: "close" },
  { keys: "r", does: "reply" },
  { keys: "?", does: "help" },
];

/** The inbox's one-key shortcuts, listed (the "?" key opens it). */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const t = useTranslations("inbox.shortcuts");
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const node = dialog.current;
    if (node && !node.open) node.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      className="m-auto w-[calc(100vw-2rem)] max-w-sm rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex flex-col gap-4 p-6">
        <h2 id="shortcuts-title" className="text-lg font-semibold">
          {t("title")}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
          {shortcutList.map((s) => (
            <div key={s.keys} className="contents">
              <dt>
                <kbd translate="no" className="rounded border border-slate-300 bg-slate-50 px-2 py-0.5 font-mono text-xs">
                  {s.keys}
                </kbd>
              </dt>
              <dd className="text-slate-700">{t(s.does)}</dd>
            </div>
          ))}
        </dl>
        <div className="flex justify-end">
          <Button type="button" variant="secondary" onClick={() => dialog.current?.close()}>
            {t("closeDialog")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
