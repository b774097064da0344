"use client";

import { TeamFilter } from "@/components/team/team-control";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { Suspense, useEffect, useMemo, useRef, useState } from "react";
import { requestJson } from "@/lib/client/api";
import { ConversationList, type Filter } from "./conversation-list";
import { type ListOrder, ListOrderSelect } from "./list-order";
import { ConversationOpening } from "./conversation-opening";
import { DetailsPanel } from "./details-panel";
import { NotificationsBell } from "./notifications-bell";
import { NewConversation } from "./composer-actions/new-conversation";
import { AttentionSettings } from "./attention-settings";
import type { Counts, InboxView, Page } from "./inbox-state";
import { useShortcuts } from "./shortcuts";
import { SimulateCustomer } from "./simulate-customer";
import { useTypingTeammates } from "./typing";
import { useInbox } from "./use-inbox";
import { startOpening } from "./open-request";
import type { ConversationItem, Teammate } from "./types";

// The conversation view (thread, composer and its menus) is not needed to show the list: it is a
// chunk of its own, so a phone's first load is lighter, fetched as soon as the inbox is up.
const loadConversationView = () => import("./conversation-view").then((module) => module.ConversationView);
const ConversationView = dynamic(loadConversationView, { loading: () => <ConversationOpening /> });
// Shown only after "?": fetched then.
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((module) => module.ShortcutsDialog), { ssr: false });

const conversationPath = /^\/inbox\/(conv_[0-9a-z]{26})\/?$/;
/** The conversation a URL opens, or null for the list. */
const idFromPath = (pathname: string) => conversationPath.exec(pathname)?.[1] ?? null;

/**
 * The inbox's layout: the list, the open conversation and its details side by side (one at a
 * time on a phone), which conversation the address opens, and the keyboard shortcuts. Its data
 * (list, threads, counts, live events) is `useInbox`'s.
 */
export function InboxApp({
  me,
  teammates: initialTeammates,
  onlineIds,
  canSimulate,
  initialConversationId = null,
  initialList = null,
  initialCounts = null,
  initialConversation = null,
}: {
  me: Teammate;
  teammates: Teammate[];
  onlineIds: string[];
  canSimulate: boolean;
  initialConversationId?: string | null;
  /** The first page of the All list, rendered with the page. */
  initialList?: Page<ConversationItem> | null;
  initialCounts?: Counts | null;
  /** The conversation the address opens, as it was before opening it read it. */
  initialConversation?: ConversationItem | null;
}) {
  const t = useTranslations("inbox");
  const [filter, setFilter] = useState<Filter>("all");
  const [query, setQuery] = useState("");
  const [label, setLabel] = useState<string | null>(null);
  const [team, setTeam] = useState<string | null>(null);
  const [order, setOrder] = useState<ListOrder>("activity");
  const [selectedId, setSelectedId] = useState<string | null>(initialConversationId);
  const [showShortcuts, setShowShortcuts] = useState(false);
  const view = useMemo<InboxView>(() => ({ filter, query, label, team, order, me: me.id, selectedId }), [filter, query, label, team, order, me.id, selectedId]);
  const inbox = useInbox({ me, view, teammates: initialTeammates, onlineIds, initialList, initialCounts, initialConversationId, initialConversation });
  const { items, opened, counts, online, teammates, people, live, markRead, markReadHere, upsertConversation, refreshCounts, setOpened } = inbox;
  // Typing implies present: a teammate replying shows as online even when their connection has not said so.
  const typing = useTypingTeammates(me.id);
  const present = useMemo(() => (typing.size ? new Set([...online, ...typing.keys()]) : online), [online, typing]);
  // The unread count of the conversation just opened, before opening it read it: where its thread opens.
  // A link or a push notification opens at the first unread message too, as a tap in the list does.
  const [unreadAt, setUnreadAt] = useState<{ id: string; count: number } | null>(() =>
    initialConversation && initialConversation.id === initialConversationId ? { id: initialConversation.id, count: initialConversation.unread_count } : null,
  );
  const [mobilePane, setMobilePane] = useState<"list" | "conversation" | "details">(initialConversationId ? "conversation" : "list");
  const readOnOpen = useRef<string | null>(null);

  const selected = items.find((c) => c.id === selectedId) ?? (opened && opened !== "missing" && opened.id === selectedId ? opened : null);

  // The conversation view's code is fetched when the person shows they are about to open one
  // (a pointer over or on the page, a key): never competing with the list's first paint, and in
  // the browser (the service worker keeps it) before the tap that needs it lands.
  useEffect(() => {
    const intents = ["pointerover", "pointerdown", "touchstart", "keydown", "focusin"] as const;
    const load = () => {
      for (const type of intents) window.removeEventListener(type, load, true);
      void loadConversationView();
    };
    for (const type of intents) window.addEventListener(type, load, { capture: true, passive: true });
    return () => {
      for (const type of intents) window.removeEventListener(type, load, true);
    };
  }, []);

  // Next.js streams the page's metadata and may set its title ("Inbox · Chorus") after this
  // effect ran: the count is put back whenever the head's title changes.
  useEffect(() => {
    const title = counts?.unread ? `(${counts.unread}) ${t("list.title")} · Chorus` : `${t("list.title")} · Chorus`;
    const apply = () => {
      if (document.title !== title) document.title = title;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [counts?.unread, t]);

  /** Opens a conversation that may not be in the list's current filter (from a notification). */
  function openAnywhere(id: string) {
    open(id);
    if (!items.some((c) => c.id === id)) void inbox.fetchIntoList(id);
  }

  // The URL names the open conversation: /inbox/{id}. Opening one adds a history entry, so Back
  // (on a phone, the way back to the list) and Forward walk through what was opened.
  function open(id: string, found?: ConversationItem) {
    // The thread is asked for first, before anything else this click sends or renders.
    if (id !== selectedId) startOpening(id);
    // A search result outside the current list joins it while it is open.
    if (found) inbox.joinConversation(found);
    if (id !== selectedId) setOpened(null);
    setUnreadAt({ id, count: (items.find((c) => c.id === id) ?? found)?.unread_count ?? 0 });
    setSelectedId(id);
    setMobilePane("conversation");
    // Read at once in the list; the server is told once the thread has loaded, so marking it read
    // never queues in front of the request that opens it.
    markReadHere(id);
    // One opened and left before its thread loaded is still read.
    if (readOnOpen.current && readOnOpen.current !== id) void markRead(readOnOpen.current);
    readOnOpen.current = id;
    if (window.location.pathname !== `/inbox/${id}`) window.history.pushState(null, "", `/inbox/${id}`);
  }

  function backToList() {
    if (idFromPath(window.location.pathname)) window.history.pushState(null, "", "/inbox");
    setSelectedId(null);
    setMobilePane("list");
  }

  useEffect(() => {
    const onPop = () => {
      const id = idFromPath(window.location.pathname);
      setOpened(null);
      setSelectedId(id);
      setMobilePane(id ? "conversation" : "list");
      if (id) void markRead(id);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [markRead, setOpened]);

  // A pasted link on a phone: Back should lead to the list, not out of the inbox.
  useEffect(() => {
    if (!initialConversationId) return;
    void requestJson("POST", `/api/inbox/conversations/${initialConversationId}/read`).then(() => {
      markReadHere(initialConversationId);
      refreshCounts(0);
    });
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    if (navigation?.type === "navigate" && window.matchMedia("(max-width: 767px)").matches) {
      window.history.replaceState(null, "", "/inbox");
      window.history.pushState(null, "", `/inbox/${initialConversationId}`);
    }
    // once, for the address the page was loaded with
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function act(action: "assign" | "close", body?: Record<string, unknown>) {
    if (!selected || selected.status === "closed") return;
    const result = await requestJson<ConversationItem>("POST", `/v1/conversations/${selected.id}/${action}`, body ?? {});
    if (result.ok) upsertConversation(result.data, result.data);
  }

  // From the conversation the address names: a key pressed again before the inbox has drawn
  // the last one (its view's code still arriving) moves on from there, not from the one before.
  const step = (by: 1 | -1) => {
    if (items.length === 0) return;
    const current = idFromPath(window.location.pathname) ?? selectedId;
    const index = items.findIndex((c) => c.id === current);
    const next = items[index === -1 ? (by === 1 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, index + by))];
    if (next && next.id !== current) open(next.id);
  };
  useShortcuts({
    j: () => step(1),
    k: () => step(-1),
    "/": () => {
      setMobilePane("list");
      document.getElementById("inbox-search")?.focus();
    },
    a: () => void act("assign", { user_id: me.id }),
    e: () => void act("close"),
    r: () => document.getElementById("composer-text")?.focus(),
    "?": () => setShowShortcuts(true),
  });

  // What the list pane does goes through `handlers`, so the pane re-renders for what it shows
  // only: a page of a long thread or a message's status leaves the list as it is.
  const handlers = useRef({ open, openAnywhere, refreshCounts, loadMore: () => {} });
  useEffect(() => {
    handlers.current = {
      open,
      openAnywhere,
      refreshCounts,
      loadMore: () => void (inbox.listState === "idle" && inbox.cursor && inbox.loadList(false, inbox.cursor)),
    };
  });
  const { listState, cursor } = inbox;
  const listPane = useMemo(
    () => (
      <ConversationList
        items={items}
        filter={filter}
        onFilter={setFilter}
        query={query}
        onQuery={setQuery}
        selectedId={selectedId}
        onOpen={(id, found) => handlers.current.open(id, found)}
        state={listState}
        hasMore={Boolean(cursor)}
        onLoadMore={() => handlers.current.loadMore()}
        people={people}
        live={live}
        counts={counts ?? undefined}
        toolbar={
          <div className="flex flex-wrap items-center justify-end gap-1" data-testid="list-toolbar">
            <AttentionSettings />
            <NotificationsBell me={me} onOpen={(id) => handlers.current.openAnywhere(id)} onRead={() => handlers.current.refreshCounts(0)} />
            <NewConversation onStarted={(id) => handlers.current.open(id)} />
            {canSimulate ? <SimulateCustomer onSent={(id: string | undefined) => id && handlers.current.open(id)} /> : null}
          </div>
        }
        label={label}
        onLabel={setLabel}
        extraFilters={
          <div className="flex flex-col gap-2 sm:flex-row">
            <TeamFilter value={team} onChange={setTeam} />
            <ListOrderSelect value={order} onChange={setOrder} />
          </div>
        }
      />
    ),
    [items, filter, query, selectedId, listState, cursor, people, live, counts, me, canSimulate, label, team, order],
  );

  return (
    <main className="flex h-full min-h-0 bg-white" data-live={live}>
      {showShortcuts ? <ShortcutsDialog onClose={() => setShowShortcuts(false)} /> : null}
      <section
        aria-label={t("panes.list")}
        className={`${mobilePane === "list" ? "flex" : "hidden"} w-full min-w-0 flex-col border-e border-slate-200 md:flex md:w-80 lg:w-96`}
      >
        {/* Each pane is its own boundary: the browser takes over (hydrates) the server-rendered page
            pane by pane, in short slices it can interrupt, not in one long task. */}
        <Suspense>{listPane}</Suspense>
      </section>
      <section
        aria-label={t("panes.conversation")}
        className={`${mobilePane === "conversation" ? "flex" : "hidden"} min-w-0 flex-1 flex-col md:flex`}
      >
        {selected ? (
          <ConversationView
            key={selected.id}
            conversation={selected}
            me={me}
            people={people}
            messages={inbox.threads[selected.id]}
            setMessages={inbox.setSelectedMessages}
            onConversation={(c) => upsertConversation(c, c)}
            onBack={backToList}
            onDetails={() => setMobilePane("details")}
            unreadAtOpen={unreadAt?.id === selected.id ? unreadAt.count : 0}
            onOpened={() => {
              if (readOnOpen.current !== selected.id) return;
              readOnOpen.current = null;
              void markRead(selected.id);
            }}
          />
        ) : selectedId && opened === "missing" ? (
          <div className="grid flex-1 place-items-center p-8 text-center text-sm text-slate-600" role="alert">
            <div>
              <p className="font-medium text-slate-800">{t("missing.title")}</p>
              <p className="mt-1">{t("missing.body")}</p>
              <button type="button" onClick={backToList} className="mt-3 font-medium text-brand-700 underline">
                {t("missing.back")}
              </button>
            </div>
          </div>
        ) : selectedId ? (
          <div className="grid flex-1 place-items-center p-8 text-center text-sm text-slate-500" aria-busy="true">
            {t("opening")}
          </div>
        ) : (
          <div className="grid flex-1 place-items-center p-8 text-center text-sm text-slate-500">
            <div>
              <p className="font-medium text-slate-700">{t("noSelection.title")}</p>
              <p className="mt-1">{t("noSelection.body")}</p>
            </div>
          </div>
        )}
      </section>
      <aside
        aria-label={t("panes.details")}
        className={`${mobilePane === "details" ? "flex" : "hidden"} w-full flex-col border-s border-slate-200 lg:flex lg:w-72`}
      >
        <Suspense>
          <DetailsPanel conversation={selected} teammates={teammates} online={present} typing={typing} me={me} onBack={() => setMobilePane("conversation")} />
        </Suspense>
      </aside>
    </main>
  );
}
