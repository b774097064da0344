"use client";

import { useEffect, useRef } from "react";

/**
 * A menu anchored under its button that stays inside the viewport: on a phone it spans the
 * width of the screen under the header. Closes on Escape (focus goes back to its button) and on
 * a press anywhere outside its own button and panel, another menu's button included, so two
 * menus are never open at once. The menus close themselves after a choice.
 */
export function Popover({ open, onClose, label, children, align = "right" }: { open: boolean; onClose: () => void; label: string; children: React.ReactNode; align?: "left" | "right" }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    // The panel's parent holds the button that opens it: a press there toggles the menu itself.
    const anchor = panel.current?.parentElement;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      anchor?.querySelector<HTMLElement>("[data-popover-trigger]")?.focus();
      onClose();
    };
    const onDown = (e: PointerEvent) => {
      if (anchor && !anchor.contains(e.target as Node)) onClose();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div
      ref={panel}
      role="dialog"
      aria-label={label}
      className={`fixed inset-x-2 top-28 z-30 max-h-[70vh] overflow-y-auto rounded-lg border border-slate-200 bg-white p-3 shadow-lg sm:absolute sm:inset-x-auto sm:top-full sm:mt-1 sm:w-72 ${align === "right" ? "sm:right-0" : "sm:left-0"}`}
    >
      {children}
    </div>
  );
}
