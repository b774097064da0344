"use client";

import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback, useRef, useState } from "react";
import { useDismiss } from "@/components/ui/use-dismiss";

/**
 * The header's Account menu. Its entries (links and sign-out forms) come from the server; the
 * menu closes after a choice, on navigation, on Escape (focus back on its button) and on a press
 * outside it.
 */
export function AccountMenu({ email, children }: { email: string; children: React.ReactNode }) {
  const t = useTranslations("shell");
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const pathname = usePathname();
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }
  useDismiss(open, root, () => {
    if (root.current?.contains(document.activeElement)) button.current?.focus();
    close();
  });

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen((o) => !o)}
        className="min-h-11 cursor-pointer rounded-md border border-slate-300 px-3 py-1.5 text-slate-700 hover:bg-slate-50 md:min-h-0"
      >
        {t("account.menu")}
      </button>
      {open ? (
        <div
          id="account-menu"
          role="group"
          aria-label={t("account.menu")}
          className="absolute end-0 z-20 mt-2 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg"
          // A link followed is the choice: the menu closes. The sign-out buttons are left to finish
          // their form (closing now would take the form out of the page before it is sent); they
          // lead to the sign-in page anyway.
          onClick={(event) => (event.target as HTMLElement).closest("a") && close()}
        >
          <p className="truncate px-2 py-1 text-xs text-slate-500" data-user-content>
            {email}
          </p>
          {children}
        </div>
      ) : null}
    </div>
  );
}
