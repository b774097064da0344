"use client";

import { useEffect, useState } from "react";
import { postJson } from "@/lib/client/api";
import type { SuggestionsOutput } from "@/lib/profile/schemas";

/** The composer listens for this event to put a suggestion into the reply box. */
export const COMPOSER_INSERT_EVENT = "chorus:composer-insert";
export type ComposerInsertDetail = { conversationId: string; text: string };

export function insertIntoComposer(detail: ComposerInsertDetail) {
  window.dispatchEvent(new CustomEvent<ComposerInsertDetail>(COMPOSER_INSERT_EVENT, { detail }));
}

type Suggestion = SuggestionsOutput["data"][number];

function sourceLabel(source: Suggestion["source"]): string {
  if (source.type === "description") return "Business profile";
  const name = source.filename ?? "Document";
  return source.page ? `${name}, page ${source.page}` : name;
}

/**
 * "From your documents": passages of the business profile and its PDFs that answer the customer's
 * last message, fetched again whenever the customer writes; a click puts one into the reply box.
 */
export function KnowledgeSuggestions({ conversationId, lastInboundId }: { conversationId: string; lastInboundId: string | null }) {
  const [state, setState] = useState<{ key: string; items: Suggestion[] } | null>(null);
  const [open, setOpen] = useState(true);
  const key = `${conversationId}:${lastInboundId ?? ""}`;

  useEffect(() => {
    if (!lastInboundId) return;
    let cancelled = false;
    void postJson<SuggestionsOutput>(`/v1/conversations/${conversationId}/suggestions`, {}).then((result) => {
      // A failure only means no suggestions: the composer works without them.
      if (!cancelled) setState({ key, items: result.ok ? result.data.data : [] });
    });
    return () => {
      cancelled = true;
    };
  }, [conversationId, lastInboundId, key]);

  const items = state?.key === key ? state.items : [];
  if (!lastInboundId || items.length === 0) return null;
  return (
    <section aria-label="From your documents" className="border-t border-slate-200 bg-amber-50/60 px-3 py-2">
      <div className="flex items-center gap-2">
        <h3 className="text-xs font-semibold text-amber-900">From your documents</h3>
        <span className="text-xs text-amber-800">{items.length === 1 ? "1 passage answers this" : `${items.length} passages answer this`}</span>
        <button type="button" className="ml-auto rounded px-1.5 text-xs text-amber-900 underline" aria-expanded={open} onClick={() => setOpen((value) => !value)}>
          {open ? "Hide" : "Show"}
        </button>
      </div>
      {open ? (
        <ul className="mt-1.5 flex max-h-44 flex-col gap-1.5 overflow-y-auto">
          {items.map((item, index) => (
            <li key={index} className="rounded-md border border-amber-200 bg-white p-2 text-sm shadow-sm">
              <p className="line-clamp-3 whitespace-pre-line break-words text-slate-800">{item.text}</p>
              <div className="mt-1 flex items-center gap-2">
                <span className="truncate text-xs text-slate-500">{sourceLabel(item.source)}</span>
                <button
                  type="button"
                  className="ml-auto shrink-0 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-50"
                  onClick={() => insertIntoComposer({ conversationId, text: item.text })}
                  aria-label={`Insert the passage from ${sourceLabel(item.source)}`}
                >
                  Insert
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
