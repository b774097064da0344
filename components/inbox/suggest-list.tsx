"use client";

import { useState } from "react";

export type Suggestion = { id: string; label: string; detail?: string };

/**
 * Keyboard state for a suggestion popover above a text box: ↑/↓ move, Enter or Tab pick,
 * Escape closes. `onKeyDown` returns true when it handled the key.
 */
export function useSuggestionKeys<T extends Suggestion>(items: T[], pick: (item: T) => void) {
  const [active, setActive] = useState(0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const key = items.map((i) => i.id).join(",");
  const open = items.length > 0 && dismissedFor !== key;
  const index = Math.min(active, Math.max(items.length - 1, 0));
  function onKeyDown(e: React.KeyboardEvent): boolean {
    if (!open) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((index + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
      e.preventDefault();
      pick(items[index]);
      setActive(0);
      return true;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      setDismissedFor(key);
      return true;
    }
    return false;
  }
  return { open, index, onKeyDown, setActive };
}

/** The popover itself: a listbox anchored above the composer, inside the viewport on a phone. */
export function SuggestList<T extends Suggestion>({
  id,
  label,
  items,
  index,
  onPick,
  onHover,
}: {
  id: string;
  label: string;
  items: T[];
  index: number;
  onPick: (item: T) => void;
  onHover: (index: number) => void;
}) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label={label}
      className="absolute bottom-full left-0 right-0 z-20 mb-2 max-h-60 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-sm shadow-lg"
    >
      {items.map((item, i) => (
        <li
          key={item.id}
          id={`${id}-${item.id}`}
          role="option"
          aria-selected={i === index}
          onMouseDown={(e) => {
            // Keep the focus in the text box.
            e.preventDefault();
            onPick(item);
          }}
          onMouseEnter={() => onHover(i)}
          className={`cursor-pointer px-3 py-1.5 ${i === index ? "bg-brand-50 text-brand-800" : "text-slate-800"}`}
        >
          <span className="font-medium">{item.label}</span>
          {item.detail ? <span className="ml-2 line-clamp-1 text-xs text-slate-500">{item.detail}</span> : null}
        </li>
      ))}
    </ul>
  );
}
