"use client";

import { useEffect, useRef } from "react";

/**
 * A menu anchored under its button that stays inside the viewport: on a phone it spans the
 * width of the screen under the header. Closes on Escape and on a click outside.
 */
export function Popover({ open, onClose, label, children, align = "right" }: { open: boolean; onClose: () => void; label: string; children: React.ReactNode; align?: "left" | "right" }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    const onDown = (e: MouseEvent) => {
      const node = panel.current;
      if (node && !node.contains(e.target as Node) && !(e.target as HTMLElement).closest?.("[data-popover-trigger]")) onClose();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("mousedown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("mousedown", onDown);
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
