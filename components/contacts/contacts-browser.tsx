"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { PageHeader } from "@/components/ui/page-header";
import { SearchField } from "@/components/ui/search-field";
import { requestJson } from "@/lib/client/api";
import type { ContactDetail } from "./types";
import type { Page } from "@/lib/platform/cursor";

type Sort = "last_message" | "name";

/** The contact list with search (GET /v1/contacts?q), its order (latest message or name) and the CSV export. */
export function ContactsBrowser() {
  const [query, setQuery] = useState("");
  const [sort, setSort] = useState<Sort>("last_message");
  const [items, setItems] = useState<ContactDetail[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<"loading" | "idle" | "more" | "error">("loading");
  const [error, setError] = useState<string>();
  const request = useRef(0);
  const t = useTranslations("contacts");
  const errorMessage = useApiErrorMessage();
  const format = useAppFormat();

  const load = useCallback(async (q: string, order: Sort, after?: string) => {
    const id = ++request.current;
    setState(after ? "more" : "loading");
    const params = new URLSearchParams({ limit: "50", sort: order });
    if (q.trim()) params.set("q", q.trim());
    if (after) params.set("cursor", after);
    const result = await requestJson<Page<ContactDetail>>("GET", `/v1/contacts?${params}`);
    if (id !== request.current) return;
    if (!result.ok) {
      setError(errorMessage(result));
      setState("error");
      return;
    }
    setItems((prev) => (after ? [...prev, ...result.data.data] : result.data.data));
    setCursor(result.data.pagination.next_cursor);
    setState("idle");
  }, [errorMessage]);

  useEffect(() => {
    const timer = setTimeout(() => void load(query, sort), query ? 250 : 0);
    return () => clearTimeout(timer);
  }, [query, sort, load]);

  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <a href="/v1/contacts/export" download className="inline-flex items-center rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            {t("exportCsv")}
          </a>
        }
      />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <SearchField id="contacts-search" label={t("search")} value={query} onChange={setQuery} placeholder={t("searchPlaceholder")} className="py-2" />
        </div>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor="contacts-sort" className="text-slate-600">
            {t("sortBy")}
          </label>
          <select
            id="contacts-sort"
            value={sort}
            onChange={(event) => setSort(event.target.value as Sort)}
            className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
          >
            <option value="last_message">{t("sortLatest")}</option>
            <option value="name">{t("sortName")}</option>
          </select>
        </div>
      </div>
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
        <ul aria-label={t("title")} aria-busy={state === "loading"} className="divide-y divide-slate-100">
          {state === "loading" ? (
            <li className="p-4 text-sm text-slate-500" role="status">
              {t("loading")}
            </li>
          ) : null}
          {state === "error" ? (
            <li className="p-4 text-sm text-red-700" role="alert">
              {t("loadError", { reason: error ?? "" })}
            </li>
          ) : null}
          {state === "idle" && items.length === 0 ? <li className="p-6 text-center text-sm text-slate-500">{query ? t("noMatch") : t("empty")}</li> : null}
          {state !== "loading"
            ? items.map((c) => (
                <li key={c.id}>
                  <Link href={`/contacts/${c.id}`} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-slate-50" data-contact-id={c.id}>
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm font-medium text-slate-900">
                        <span data-user-content>{c.name || (c.phone ? `+${c.phone}` : c.username || c.network_user_id)}</span>
                        {c.blocked ? <span className="ms-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">{t("blocked")}</span> : null}
                      </span>
                      <span className="block truncate text-xs text-slate-600" data-user-content>
                        {[c.phone ? `+${c.phone}` : null, c.username, c.email].filter(Boolean).join(" · ") || c.network_user_id}
                      </span>
                    </span>
                    <span className="text-xs text-slate-600">
                      {t("conversations", { count: c.conversations_count })}
                      {c.last_message_at ? (
                        <>
                          {" · "}
                          <time dateTime={c.last_message_at}>{format.relative(c.last_message_at)}</time>
                        </>
                      ) : null}
                    </span>
                  </Link>
                </li>
              ))
            : null}
        </ul>
        {cursor && state !== "loading" ? (
          <div className="border-t border-slate-100 p-3 text-center">
            <button type="button" className="text-sm text-brand-700 underline" disabled={state === "more"} onClick={() => void load(query, sort, cursor)}>
              {state === "more" ? t("loadingMore") : t("loadMore")}
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
