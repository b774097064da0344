"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { postJson } from "@/lib/client/api";
import type { DraftOutput } from "@/lib/assistant/schemas";
import type { SuggestionsOutput } from "@/lib/profile/schemas";

/** The composer listens for this event to put a suggestion into the reply box. */
export const COMPOSER_INSERT_EVENT = "chorus:composer-insert";
export type ComposerInsertDetail = { conversationId: string; text: string };

function insertIntoComposer(detail: ComposerInsertDetail) {
  window.dispatchEvent(new CustomEvent<ComposerInsertDetail>(COMPOSER_INSERT_EVENT, { detail }));
}

type Suggestion = SuggestionsOutput["data"][number];
type Source = { type: "description" | "document"; filename?: string; page?: number };

function sourceLabel(source: Source, t: (key: "businessProfile" | "document" | "page", values?: { name: string; page: number }) => string): string {
  if (source.type === "description") return t("businessProfile");
  const name = source.filename ?? t("document");
  return source.page ? t("page", { name, page: source.page }) : name;
}

type Loaded = { key: string; items: Suggestion[]; draft: boolean };
type Drafted = { key: string; state: "working" | "none" | "failed" } | { key: string; state: "done"; sources: DraftOutput["sources"] };

/**
 * "From your documents": passages of the business profile and its PDFs that answer the customer's
 * last message, fetched again whenever the customer writes. Collapsed to one line ("3 answers
 * from your documents") with the top answer insertable in one tap; the agent opens the list, and
 * it stays as the agent left it (a new message never re-opens it). "Not helpful" hides a passage
 * in this conversation for good. Nothing is shown while the 24-hour window is closed. With an
 * answer assistant configured, "Draft a reply" writes an answer from the passages, with sources.
 */
export function KnowledgeSuggestions({ conversationId, lastInboundId }: { conversationId: string; lastInboundId: string | null }) {
  const t = useTranslations("inboxTools.suggestions");
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [openFor, setOpenFor] = useState<string | null>(null);
  const [drafted, setDrafted] = useState<Drafted | null>(null);
  const key = `${conversationId}:${lastInboundId ?? ""}`;
  const open = openFor === conversationId;

  useEffect(() => {
    if (!lastInboundId) return;
    let cancelled = false;
    void postJson<SuggestionsOutput>(`/v1/conversations/${conversationId}/suggestions`, {}).then((result) => {
      // A failure only means no suggestions: the composer works without them.
      if (cancelled) return;
      const usable = result.ok && result.data.window_open !== false;
      setLoaded({ key, items: usable ? result.data.data : [], draft: usable && result.data.draft === true });
    });
    return () => {
      cancelled = true;
    };
  }, [conversationId, lastInboundId, key]);

  const current = loaded?.key === key ? loaded : null;
  const items = current?.items ?? [];
  if (!lastInboundId || items.length === 0) return null;
  const top = items[0];
  const draft = drafted?.key === key ? drafted : null;

  function notHelpful(item: Suggestion) {
    setLoaded((value) => (value ? { ...value, items: value.items.filter((other) => other.id !== item.id) } : value));
    void postJson(`/v1/conversations/${conversationId}/suggestions/dismissals`, { suggestion_id: item.id });
  }

  async function draftReply() {
    setDrafted({ key, state: "working" });
    const result = await postJson<DraftOutput>(`/v1/conversations/${conversationId}/draft`, {});
    if (result.ok) {
      insertIntoComposer({ conversationId, text: result.data.text });
      setDrafted({ key, state: "done", sources: result.data.sources });
    } else setDrafted({ key, state: result.status === 409 ? "none" : "failed" });
  }

  const count = t("count", { count: items.length });
  const sourceOf = (source: Source) => sourceLabel(source, t);
  return (
    <section aria-label={t("region")} className="border-t border-slate-200 bg-amber-50/60 px-3 py-1.5">
      <div className="flex min-w-0 items-center gap-2">
        <button
          type="button"
          className="min-w-0 flex-1 truncate text-left text-xs font-medium text-amber-900 underline-offset-2 hover:underline"
          aria-expanded={open}
          aria-controls={`suggestions-${conversationId}`}
          onClick={() => setOpenFor(open ? null : conversationId)}
        >
          <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
          {count}
        </button>
        {current?.draft ? (
          <button
            type="button"
            className="shrink-0 rounded-md border border-amber-300 bg-white px-2 py-1 text-xs font-medium text-amber-900 hover:bg-amber-50 disabled:opacity-60"
            disabled={draft?.state === "working"}
            onClick={() => void draftReply()}
          >
            {draft?.state === "working" ? t("drafting") : t("draft")}
          </button>
        ) : null}
        <button
          type="button"
          className="shrink-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-50"
          onClick={() => insertIntoComposer({ conversationId, text: top.text })}
          aria-label={t("insertTop", { source: sourceOf(top.source) })}
        >
          {t("insert")}
        </button>
      </div>
      {draft && draft.state !== "working" ? (
        <p role="status" className="mt-1 text-xs text-amber-900">
          {draft.state === "done"
            ? t("inserted", { sources: draft.sources.map((source) => sourceOf(source)).join("; ") })
            : draft.state === "none"
              ? t("none")
              : t("failed")}
        </p>
      ) : null}
      {open ? (
        <ul id={`suggestions-${conversationId}`} className="mt-1.5 flex max-h-44 flex-col gap-1.5 overflow-y-auto">
          {items.map((item) => (
            <li key={item.id} className="rounded-md border border-amber-200 bg-white p-2 text-sm shadow-sm">
              <p className="line-clamp-4 whitespace-pre-line break-words text-slate-800">{item.text}</p>
              <div className="mt-1 flex items-center gap-2">
                <span className="min-w-0 truncate text-xs text-slate-500">{sourceOf(item.source)}</span>
                <button
                  type="button"
                  className="ml-auto shrink-0 rounded-md px-2 py-0.5 text-xs text-slate-600 underline hover:text-slate-900"
                  onClick={() => notHelpful(item)}
                  aria-label={t("notHelpfulLabel", { source: sourceOf(item.source) })}
                >
                  {t("notHelpful")}
                </button>
                <button
                  type="button"
                  className="shrink-0 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-800 hover:bg-slate-50"
                  onClick={() => insertIntoComposer({ conversationId, text: item.text })}
                  aria-label={t("insertPassage", { source: sourceOf(item.source) })}
                >
                  {t("insert")}
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
