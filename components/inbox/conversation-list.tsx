"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useEffect, useRef } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { Avatar } from "@/components/ui/avatar";
import { SearchField } from "@/components/ui/search-field";
import { LabelChips } from "./label-chips";
import { LabelFilter } from "./label-filter";
import { PriorityMark } from "@/components/team/priority-control";
import { SlaBadge } from "@/components/team/sla-badge";
import { type ConversationItem, displayName, type Teammate } from "./types";

// Kept as an export of the list: the conversation view and details panel import it from here.
export { Avatar };

// Search results are shown only once someone types a query: fetched then, not with the inbox.
const SearchResults = dynamic(() => import("./search-results").then((module) => module.SearchResults), { ssr: false });

export type Filter = "all" | "mine" | "unassigned" | "snoozed" | "closed" | "mentions";

// Labels are keys of the `inbox.list` catalog namespace.
const filters: { id: Filter; label: string }[] = [
  { id: "all", label: "filter.all" },
  { id: "mine", label: "filter.mine" },
  { id: "unassigned", label: "filter.unassigned" },
  { id: "snoozed", label: "filter.snoozed" },
  { id: "closed", label: "filter.closed" },
  { id: "mentions", label: "filter.mentions" },
];

export function ConversationList({
  items,
  filter,
  onFilter,
  query,
  onQuery,
  selectedId,
  onOpen,
  state,
  hasMore,
  onLoadMore,
  people,
  live,
  toolbar,
  label = null,
  onLabel,
  counts,
  extraFilters,
}: {
  items: ConversationItem[];
  filter: Filter;
  onFilter: (f: Filter) => void;
  query: string;
  onQuery: (q: string) => void;
  selectedId: string | null;
  onOpen: (id: string, found?: ConversationItem) => void;
  state: "loading" | "idle" | "more" | "error";
  hasMore: boolean;
  onLoadMore: () => void;
  people: Map<string, Teammate>;
  live: "connecting" | "live" | "reconnecting" | "offline";
  toolbar: React.ReactNode;
  label?: string | null;
  onLabel?: (labelId: string | null) => void;
  /** What each filter tab lists (Mentions: conversations with an unread mention). */
  counts?: Partial<Record<Filter, number>>;
  /** More narrowing controls under the label filter (the team filter). */
  extraFilters?: React.ReactNode;
}) {
  const t = useTranslations("inbox.list");
  const format = useAppFormat();
  const searching = query.trim().length > 0;
  const sentinel = useRef<HTMLLIElement>(null);
  const loadMore = useRef(onLoadMore);
  useEffect(() => {
    loadMore.current = onLoadMore;
  });
  useEffect(() => {
    const node = sentinel.current;
    if (!node) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore.current(), { rootMargin: "200px" });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasMore, items.length]);

  return (
    <>
      <div className="flex flex-col gap-3 border-b border-slate-200 p-3">
        {/* Longer words (Spanish, Portuguese) move the tools to a row of their own rather than squeeze the title. */}
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-lg font-semibold">{t("title")}</h1>
          <span
            className={`ms-1 inline-flex items-center gap-1 text-xs whitespace-nowrap ${live === "live" ? "text-emerald-700" : live === "offline" ? "text-red-700" : "text-amber-800"}`}
            role="status"
            aria-label={
              live === "live"
                ? t("live.onLabel")
                : live === "connecting"
                  ? t("live.connectingLabel")
                  : live === "reconnecting"
                    ? t("live.reconnectingLabel")
                    : t("live.offlineLabel")
            }
            title={live === "offline" ? t("live.offlineHelp") : undefined}
          >
            <span aria-hidden className={`h-2 w-2 rounded-full ${live === "live" ? "bg-emerald-500" : live === "offline" ? "bg-red-500" : "animate-pulse bg-amber-500"}`} />
            {live === "live" ? t("live.on") : live === "connecting" ? t("live.connecting") : live === "reconnecting" ? t("live.reconnecting") : t("live.offline")}
          </span>
          <div className="ms-auto flex gap-1.5">{toolbar}</div>
        </div>
        <SearchField id="inbox-search" label={t("searchLabel")} value={query} onChange={onQuery} placeholder={t("searchPlaceholder")} className="py-1.5" />
        {/* The tabs wrap onto a second row rather than scroll: every name and count stays in view at any width. */}
        <div role="tablist" aria-label={t("filterLabel")} className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 text-xs font-medium">
          {filters.map((f) => (
            <button
              key={f.id}
              role="tab"
              type="button"
              aria-selected={filter === f.id}
              onClick={() => onFilter(f.id)}
              className={`grow whitespace-nowrap rounded-md px-2 py-1.5 max-md:min-h-11 ${filter === f.id ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
            >
              {t(f.label)}
              {counts?.[f.id] !== undefined ? (
                <span className="ms-1 tabular-nums text-slate-600" data-testid={`count-${f.id}`}>
                  {counts[f.id]}
                </span>
              ) : (
                // Room for the count before it arrives, so the tabs do not wrap (and push the list down) when it does.
                <span aria-hidden className="invisible ms-1 tabular-nums">
                  0
                </span>
              )}
            </button>
          ))}
        </div>
        {onLabel ? <LabelFilter value={label} onChange={onLabel} /> : null}
        {extraFilters}
      </div>
      {searching ? <SearchResults query={query} selectedId={selectedId} onOpen={(c) => onOpen(c.id, c)} /> : null}
      <ul hidden={searching} className="min-h-0 flex-1 overflow-y-auto" aria-label={t("listLabel")} aria-busy={state === "loading"}>
        {state === "loading" && items.length === 0
          ? Array.from({ length: 6 }, (_, i) => (
              <li key={i} className="flex animate-pulse gap-3 border-b border-slate-100 px-3 py-3">
                <span className="h-10 w-10 rounded-full bg-slate-200" />
                <span className="flex-1 space-y-2">
                  <span className="block h-3 w-1/2 rounded bg-slate-200" />
                  <span className="block h-3 w-3/4 rounded bg-slate-100" />
                </span>
              </li>
            ))
          : null}
        {state === "error" ? (
          <li className="p-4 text-sm text-red-700" role="alert">
            {t("loadError")}
          </li>
        ) : null}
        {state !== "loading" && items.length === 0 ? (
          <li className="p-6 text-center text-sm text-slate-500">{query ? t("emptySearch") : t("empty")}</li>
        ) : null}
        {items.map((c) => {
          const name = displayName(c.contact);
          const assignee = c.assigned_to ? people.get(c.assigned_to)?.name : null;
          return (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => onOpen(c.id)}
                aria-current={selectedId === c.id ? "true" : undefined}
                data-conversation-id={c.id}
                className={`flex w-full gap-3 border-b border-slate-100 px-3 py-3 text-start hover:bg-slate-50 ${selectedId === c.id ? "bg-brand-50" : ""}`}
              >
                <Avatar name={name} className="h-10 w-10 text-sm" />
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline gap-2">
                    <span className={`truncate text-sm ${c.unread_count ? "font-semibold" : "font-medium"}`} data-user-content>
                      {name}
                    </span>
                    {/* Rendered first on the server, a minute earlier perhaps: "2 minutes ago" may differ by then. */}
                    <time className="ms-auto shrink-0 text-xs text-slate-600" dateTime={c.last_message_at ?? c.created_at} suppressHydrationWarning>
                      {format.relative(c.last_message_at ?? c.created_at)}
                    </time>
                  </span>
                  <span className="mt-0.5 flex items-center gap-2">
                    {c.last_message_preview ? (
                      <span className="truncate text-sm text-slate-600" data-user-content>
                        {c.last_message_preview}
                      </span>
                    ) : (
                      <span className="truncate text-sm text-slate-600">{t("noMessages")}</span>
                    )}
                    {c.unread_count ? (
                      <span className="ms-auto rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white" aria-label={t("unread", { count: c.unread_count })}>
                        {c.unread_count}
                      </span>
                    ) : null}
                  </span>
                  <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                    {c.status === "closed" ? (
                      <span>{t("status.closed")}</span>
                    ) : assignee ? (
                      <span>{t.rich("status.assignedTo", { name: assignee, person: (chunks) => <span data-user-content>{chunks}</span> })}</span>
                    ) : (
                      <span>{t("status.unassigned")}</span>
                    )}
                    {c.status === "snoozed" ? <span className="text-violet-700">{t("status.snoozed")}</span> : null}
                    <PriorityMark priority={c.priority} />
                    {c.status === "closed" ? null : <SlaBadge sla={c.sla} />}
                    <LabelChips labels={c.labels} />
                  </span>
                </span>
              </button>
            </li>
          );
        })}
        {hasMore ? (
          <li ref={sentinel} className="p-3 text-center text-xs text-slate-500">
            {state === "more" ? (
              t("loadingMore")
            ) : (
              <button type="button" onClick={onLoadMore} className="underline">
                {t("loadMore")}
              </button>
            )}
          </li>
        ) : null}
      </ul>
    </>
  );
}
