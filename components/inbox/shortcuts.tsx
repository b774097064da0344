"use client";

import { useEffect, useRef } from "react";

export type ShortcutHandlers = Partial<Record<"j" | "k" | "/" | "a" | "e" | "r" | "?", () => void>>;

const typingIn = (target: EventTarget | null) => {
  const node = target as HTMLElement | null;
  if (!node) return false;
  return node.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(node.tagName) || Boolean(node.closest("dialog[open]"));
};

/** One-key shortcuts of the inbox (as in Gmail, Front): never while typing or with a modifier held. */
export function useShortcuts(handlers: ShortcutHandlers) {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (typingIn(event.target)) return;
      const handler = current.current[event.key as keyof ShortcutHandlers];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
