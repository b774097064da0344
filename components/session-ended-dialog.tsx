"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { SESSION_ENDED_EVENT } from "@/lib/client/api";

/**
 * When a signed-in request answers 401 (the session expired or was signed out elsewhere), the
 * page asks to sign in again instead of showing the API's words, and comes back to where it was.
 * Drafts and unsent replies are kept on this device, so nothing typed is lost on the way.
 */
export function SessionEndedDialog() {
  const t = useTranslations("sessionEnded");
  const [ended, setEnded] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const onEnded = () => setEnded(true);
    window.addEventListener(SESSION_ENDED_EVENT, onEnded);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, onEnded);
  }, []);

  useEffect(() => {
    const node = dialog.current;
    if (!ended || !node || node.open) return;
    node.showModal();
    title.current?.focus();
  }, [ended]);

  if (!ended) return null;
  const next = typeof window === "undefined" ? "/inbox" : window.location.pathname + window.location.search;
  return (
    <dialog
      ref={dialog}
      aria-labelledby="session-ended-title"
      aria-describedby="session-ended-body"
      // Escape does not dismiss it: nothing works until the person signs in again.
      onCancel={(event) => event.preventDefault()}
      className="m-auto w-[calc(100vw-2rem)] max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      <div className="flex flex-col gap-4 p-6">
        {/* Focus lands on the title, not the link: an Enter typed mid-sentence does not leave the page. */}
        <h2 id="session-ended-title" ref={title} tabIndex={-1} className="text-lg font-semibold text-slate-900">
          {t("title")}
        </h2>
        <p id="session-ended-body" className="text-sm text-slate-600">
          {t("body")}
        </p>
        <div className="flex justify-end">
          <a
            href={`/login?next=${encodeURIComponent(next)}`}
            className="inline-flex items-center justify-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white no-underline hover:bg-brand-700 hover:text-white"
          >
            {t("signIn")}
          </a>
        </div>
      </div>
    </dialog>
  );
}
