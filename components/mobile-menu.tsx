"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback, useRef, useState } from "react";
import { useDismiss } from "@/components/ui/use-dismiss";

type Item = { href: string; label: string };

/**
 * The phone's menu: every page of the app in one panel under a visible button, instead of a
 * sideways-scrolling strip. Closes on navigation, Escape and a tap outside.
 */
export function MobileMenu({ main, settings }: { main: Item[]; settings: Item[] }) {
  const t = useTranslations("shell");
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useDismiss(open, root, close);

  const active = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  const link = (item: Item, indent = false) => (
    <Link
      key={item.href}
      href={item.href}
      aria-current={active(item.href) ? "page" : undefined}
      className={`flex min-h-11 items-center rounded-md px-3 text-sm no-underline ${indent ? "ps-6" : ""} ${active(item.href) ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
      onClick={() => setOpen(false)}
    >
      {item.label}
    </Link>
  );

  return (
    <div ref={root} className="relative md:hidden">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="mobile-menu"
        onClick={() => setOpen((o) => !o)}
        className="inline-flex min-h-11 items-center gap-1.5 rounded-md border border-slate-300 px-2.5 text-sm text-slate-700 hover:bg-slate-50"
      >
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
          <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
        </svg>
        {t("menu")}
      </button>
      {open ? (
        <nav
          id="mobile-menu"
          aria-label={t("menu")}
          className="fixed inset-x-2 top-14 z-40 max-h-[calc(100dvh-4rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
        >
          {main.map((item) =>
            item.href === "/settings" ? (
              <div key={item.href}>
                {link(item)}
                {settings.map((sub) => link(sub, true))}
              </div>
            ) : (
              link(item)
            ),
          )}
        </nav>
      ) : null}
    </div>
  );
}
