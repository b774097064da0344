"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { Avatar } from "./conversation-list";
import { LabelChips } from "./label-chips";
import { contactAddressLabel, type ConversationItem, displayName } from "./types";
import type { Page } from "@/lib/platform/cursor";

export type SearchResult = {
  conversation: ConversationItem;
  match: { field: "name" | "phone" | "username" | "email" | "message" | "note"; message_id: string | null; snippet: string; highlights: { start: number; end: number }[] };
};

/** The snippet with its matches in <mark>. */
function Highlighted({ text, highlights }: { text: string; highlights: SearchResult["match"]["highlights"] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  highlights.forEach((h, i) => {
    if (h.start > at) parts.push(text.slice(at, h.start));
    parts.push(
      <mark key={i} className="rounded bg-amber-200 px-0.5 text-slate-900">
        {text.slice(h.start, h.end)}
      </mark>,
    );
    at = h.end;
  });
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

/**
 * Search across names, numbers and everything written (GET /v1/search), best match first,
 * with the matching text highlighted. Shown in place of the list while the search box has text.
 */
export function SearchResults({ query, selectedId, onOpen }: { query: string; selectedId: string | null; onOpen: (conversation: ConversationItem) => void }) {
  const t = useTranslations("inboxTools.search");
  const statusName = useTranslations("inbox.details.statusName");
  const format = useAppFormat();
  const apiError = useApiErrorMessage();
  const fieldLabel: Record<SearchResult["match"]["field"], string> = {
    name: t("field.name"),
    phone: t("field.phone"),
    username: t("field.username"),
    email: t("field.email"),
    message: t("field.message"),
    note: t("field.note"),
  };
  const [results, setResults] = useState<SearchResult[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "idle" | "more" | "error">("loading");
  const [error, setError] = useState<string>();
  const q = query.trim();

  useEffect(() => {
    if (q.length < 2) return;
    let current = true;
    const timer = setTimeout(async () => {
      setState("loading");
      const result = await requestJson<Page<SearchResult>>("GET", `/v1/search?${new URLSearchParams({ q, limit: "30" })}`);
      if (!current) return;
      if (!result.ok) {
        setError(apiError(result));
        setState("error");
        return;
      }
      setResults(result.data.data);
      setCursor(result.data.pagination.next_cursor);
      setState("idle");
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q, apiError]);

  async function more(after: string) {
    setState("more");
    const result = await requestJson<Page<SearchResult>>("GET", `/v1/search?${new URLSearchParams({ q, limit: "30", cursor: after })}`);
    if (!result.ok) {
      setError(apiError(result));
      setState("error");
      return;
    }
    setResults((prev) => [...prev, ...result.data.data.filter((r) => !prev.some((p) => p.conversation.id === r.conversation.id))]);
    setCursor(result.data.pagination.next_cursor);
    setState("idle");
  }

  if (q.length < 2) return <p className="p-6 text-center text-sm text-slate-500">{t("tooShort")}</p>;
  return (
    <ul className="min-h-0 flex-1 overflow-y-auto" aria-label={t("results")} aria-busy={state === "loading"}>
      {state === "loading" ? (
        <li className="p-4 text-center text-sm text-slate-500" role="status">
          {t("searching")}
        </li>
      ) : null}
      {state === "error" ? (
        <li className="p-4 text-sm text-red-700" role="alert">
          {t("failed", { error: error ?? "" })}
        </li>
      ) : null}
      {state === "idle" && results.length === 0 ? <li className="p-6 text-center text-sm text-slate-500">{t("nothing", { query: q })}</li> : null}
      {state !== "loading"
        ? results.map(({ conversation, match }) => {
            const name = displayName(conversation.contact);
            return (
              <li key={conversation.id}>
                <button
                  type="button"
                  onClick={() => onOpen(conversation)}
                  aria-current={selectedId === conversation.id ? "true" : undefined}
                  data-search-result={conversation.id}
                  className={`flex w-full gap-3 border-b border-slate-100 px-3 py-3 text-left hover:bg-slate-50 ${selectedId === conversation.id ? "bg-brand-50" : ""}`}
                >
                  <Avatar name={name} className="h-10 w-10 text-sm" />
                  <span className="min-w-0 flex-1">
                    <span className="flex items-baseline gap-2">
                      <span className="truncate text-sm font-medium" data-user-content>{match.field === "name" ? <Highlighted text={match.snippet} highlights={match.highlights} /> : name}</span>
                      <time className="ml-auto shrink-0 text-xs text-slate-600" dateTime={conversation.last_message_at ?? conversation.created_at}>
                        {format.relative(conversation.last_message_at ?? conversation.created_at)}
                      </time>
                    </span>
                    <span className="mt-0.5 block text-sm text-slate-600">
                      <span className="mr-1 text-xs font-medium uppercase tracking-wide text-slate-500">{fieldLabel[match.field]}</span>
                      <span data-user-content>
                        {match.field === "name" ? contactAddressLabel(conversation.contact) : match.field === "phone" ? <>+<Highlighted text={match.snippet} highlights={match.highlights} /></> : <Highlighted text={match.snippet} highlights={match.highlights} />}
                      </span>
                    </span>
                    <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                      <span>{statusName(conversation.status)}</span>
                      <LabelChips labels={conversation.labels} />
                    </span>
                  </span>
                </button>
              </li>
            );
          })
        : null}
      {cursor && state !== "loading" ? (
        <li className="p-3 text-center text-xs text-slate-500">
          {state === "more" ? t("loadingMore") : <button type="button" onClick={() => void more(cursor)} className="underline">{t("more")}</button>}
        </li>
      ) : null}
    </ul>
  );
}
