"use client";

import { TeamFilter } from "@/components/team/team-control";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { requestJson } from "@/lib/client/api";
import { rememberResponse } from "@/lib/client/offline-cache";
import { ConversationList, type Filter } from "./conversation-list";
import { comparatorOf, type ListOrder, ListOrderSelect } from "./list-order";
import { ConversationOpening } from "./conversation-opening";
import { DetailsPanel } from "./details-panel";
import { publishLiveEvent } from "./live-bus";
import { NotificationsBell } from "./notifications-bell";
import { NewConversation } from "./composer-actions/new-conversation";
import { AttentionSettings } from "./attention-settings";
import { useLiveEvents } from "./live-events";
import { notify } from "./notify";
import { useShortcuts } from "./shortcuts";
import { SimulateCustomer } from "./simulate-customer";
import { useTypingTeammates } from "./typing";
import { type ConversationItem, displayName, type EventEnvelope, INITIAL_LIST_LIMIT, type MessageItem, type Teammate } from "./types";

// The conversation view (thread, composer and its menus) is not needed to show the list: it is a
// chunk of its own, so a phone's first load is lighter, fetched as soon as the inbox is up.
const loadConversationView = () => import("./conversation-view").then((module) => module.ConversationView);
const ConversationView = dynamic(loadConversationView, { loading: () => <ConversationOpening /> });
// Shown only after "?": fetched then.
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((module) => module.ShortcutsDialog), { ssr: false });

type Counts = Record<Filter, number> & { unread: number };

const conversationPath = /^\/inbox\/(conv_[0-9a-z]{26})\/?$/;
/** The conversation a URL opens, or null for the list. */
const idFromPath = (pathname: string) => conversationPath.exec(pathname)?.[1] ?? null;

type Page<T> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };


function matches(filter: Filter, c: ConversationItem, me: string, label: string | null = null, team: string | null = null) {
  if (label && !c.labels?.some((l) => l.id === label)) return false;
  if (team && (team === "none" ? Boolean(c.team_id) : c.team_id !== team)) return false;
  if (filter === "closed") return c.status === "closed";
  // Who is mentioned where is known to the server only: the list keeps what it loaded.
  if (filter === "mentions") return true;
  if (filter === "snoozed") return c.status === "snoozed";
  if (c.status === "closed" || c.status === "snoozed") return false;
  if (filter === "mine") return c.assigned_to === me;
  if (filter === "unassigned") return !c.assigned_to;
  return true;
}

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
  const byOrder = useMemo(() => comparatorOf(order), [order]);
  // Opening a conversation reads it: the list shows it read from the first paint.
  const [items, setItems] = useState<ConversationItem[]>(() =>
    (initialList?.data ?? []).map((c) => (c.id === initialConversationId ? { ...c, unread_count: 0 } : c)),
  );
  const [cursor, setCursor] = useState<string | null>(initialList?.pagination.next_cursor ?? null);
  const [listState, setListState] = useState<"loading" | "idle" | "more" | "error">(initialList ? "idle" : "loading");
  const [selectedId, setSelectedId] = useState<string | null>(initialConversationId);
  // The open conversation when the loaded list does not hold it (a link, another filter).
  const [opened, setOpened] = useState<ConversationItem | "missing" | null>(
    initialConversation && initialConversation.id === initialConversationId ? { ...initialConversation, unread_count: 0 } : null,
  );
  const [counts, setCounts] = useState<Counts | null>(initialCounts);
  const [showShortcuts, setShowShortcuts] = useState(false);
  const [messages, setMessages] = useState<Record<string, MessageItem[]>>({});
  const [teammates, setTeammates] = useState(initialTeammates);
  const [online, setOnline] = useState(() => new Set(onlineIds));
  // Typing implies present: a teammate replying shows as online even when their connection has not said so.
  const typing = useTypingTeammates(me.id);
  const present = useMemo(() => (typing.size ? new Set([...online, ...typing.keys()]) : online), [online, typing]);
  // The unread count of the conversation just opened, before opening it read it: where its thread opens.
  // A link or a push notification opens at the first unread message too, as a tap in the list does.
  const [unreadAt, setUnreadAt] = useState<{ id: string; count: number } | null>(() =>
    initialConversation && initialConversation.id === initialConversationId ? { id: initialConversation.id, count: initialConversation.unread_count } : null,
  );
  const [mobilePane, setMobilePane] = useState<"list" | "conversation" | "details">(initialConversationId ? "conversation" : "list");
  const listRequest = useRef(0);
  const readOnOpen = useRef<string | null>(null);

  const people = useMemo(() => new Map(teammates.map((t) => [t.id, t])), [teammates]);
  const selected = items.find((c) => c.id === selectedId) ?? (opened && opened !== "missing" && opened.id === selectedId ? opened : null);

  const loadList = useCallback(
    async (reset: boolean, after?: string | null) => {
      const request = ++listRequest.current;
      setListState(reset ? "loading" : "more");
      const params = new URLSearchParams({ filter, limit: String(INITIAL_LIST_LIMIT) });
      if (query.trim()) params.set("q", query.trim());
      if (label) params.set("label", label);
      if (team) params.set("team", team);
      if (order !== "activity") params.set("sort", order);
      if (!reset && after) params.set("cursor", after);
      const result = await requestJson<Page<ConversationItem>>("GET", `/api/inbox/conversations?${params}`);
      if (request !== listRequest.current) return;
      if (!result.ok) {
        setListState("error");
        return;
      }
      setItems((prev) => {
        const merged = reset ? result.data.data : [...prev, ...result.data.data.filter((c) => !prev.some((p) => p.id === c.id))];
        return merged;
      });
      setCursor(result.data.pagination.next_cursor);
      setListState("idle");
    },
    [filter, query, label, team, order],
  );

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

  // The page came with the All list's first page: it is not asked for again, only kept for
  // offline reading. Offline, the page may be the service worker's older copy: the list kept
  // in this browser is read instead.
  const firstPageShown = useRef(Boolean(initialList));
  useEffect(() => {
    if (firstPageShown.current) {
      firstPageShown.current = false;
      if (initialList && navigator.onLine) {
        void rememberResponse(`/api/inbox/conversations?${new URLSearchParams({ filter: "all", limit: String(INITIAL_LIST_LIMIT) })}`, initialList).catch(() => undefined);
        return;
      }
    }
    const timer = setTimeout(() => void loadList(true), query ? 250 : 0);
    return () => clearTimeout(timer);
  }, [loadList, query, initialList]);

  const upsertConversation = useCallback(
    (patch: Partial<ConversationItem> & { id: string }, full?: ConversationItem) => {
      setOpened((o) => (o && o !== "missing" && o.id === patch.id ? { ...o, ...patch } : o));
      setItems((prev) => {
        const existing = prev.find((c) => c.id === patch.id);
        const next = existing ? { ...existing, ...patch } : full;
        if (!next) return prev;
        const rest = prev.filter((c) => c.id !== patch.id);
        if (!matches(filter, next, me.id, label, team) && next.id !== selectedId) return rest;
        if ((query.trim() || filter === "mentions") && !existing) return rest;
        return [...rest, next].sort(byOrder);
      });
    },
    [filter, me.id, query, selectedId, label, team, byOrder],
  );

  const refreshConversation = useCallback(
    async (id: string) => {
      const result = await requestJson<ConversationItem>("GET", `/v1/conversations/${id}`);
      if (result.ok) upsertConversation(result.data, result.data);
      else if (result.status === 404) setItems((prev) => prev.filter((c) => c.id !== id));
    },
    [upsertConversation],
  );

  // Counts for the filter tabs and the tab title; coalesced, as events come in bursts.
  const countsTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refreshCounts = useCallback((delay = 300) => {
    clearTimeout(countsTimer.current);
    countsTimer.current = setTimeout(async () => {
      const result = await requestJson<Counts>("GET", "/api/inbox/counts");
      if (result.ok) setCounts(result.data);
    }, delay);
  }, []);
  useEffect(() => {
    if (!initialCounts) refreshCounts(0);
    return () => clearTimeout(countsTimer.current);
  }, [refreshCounts, initialCounts]);

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

  const markRead = useCallback(
    async (id: string) => {
      setItems((prev) => prev.map((c) => (c.id === id ? { ...c, unread_count: 0 } : c)));
      await requestJson("POST", `/api/inbox/conversations/${id}/read`);
      refreshCounts();
    },
    [refreshCounts],
  );

  const mergeMessage = useCallback((message: MessageItem) => {
    setMessages((prev) => {
      const list = prev[message.conversation_id];
      if (!list) return prev;
      const index = list.findIndex((m) => m.id === message.id);
      const next = index >= 0 ? list.map((m, i) => (i === index ? { ...m, ...message, local: undefined } : m)) : [...list, message];
      next.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.id < b.id ? -1 : 1));
      return { ...prev, [message.conversation_id]: next };
    });
  }, []);

  // Live updates: one stream per tab, kept alive and resumed from the last event seen.
  const onEvent = (event: EventEnvelope) => {
    publishLiveEvent(event);
    const data = event.data as Record<string, unknown>;
    if (event.type === "note.created" && filter === "mentions" && ((data.note as { mentions?: string[] } | undefined)?.mentions ?? []).includes(me.id)) {
      void loadList(true);
    }
    const conversation = data.conversation as (Partial<ConversationItem> & { id: string }) | undefined;
    const message = data.message as MessageItem | undefined;
    if (event.type.startsWith("user.")) {
      const user = data.user as Teammate;
      if (event.type === "user.online") setOnline((s) => new Set(s).add(user.id));
      if (event.type === "user.offline")
        setOnline((s) => {
          const next = new Set(s);
          next.delete(user.id);
          return next;
        });
      if (event.type === "user.created" || event.type === "user.updated") setTeammates((list) => [...list.filter((t) => t.id !== user.id), user]);
      if (event.type === "user.deleted") setTeammates((list) => list.filter((t) => t.id !== user.id));
      return;
    }
    if (message) mergeMessage(message);
    const conversationId = conversation?.id ?? message?.conversation_id;
    if (!conversationId) return;
    refreshCounts();
    if (event.type === "message.received" && message) alertNewMessage(event, message, conversation);
    // A customer message arriving in the conversation on screen is read as it arrives.
    const seen = message?.direction === "inbound" && conversationId === selectedId && document.visibilityState === "visible";
    void (seen ? markRead(conversationId) : Promise.resolve()).then(() => refreshConversation(conversationId));
  };
  const live = useLiveEvents({
    onEvent,
    // Missed events were replayed; the list and counts are refreshed too, in case the gap was long.
    onResume: () => {
      void loadList(true);
      refreshCounts(0);
    },
  });

  // The list came with the page, rendered before the live connection existed: whatever arrived in
  // between is fetched once the connection is live, so no conversation waits for a reload.
  const caughtUpWithPage = useRef(!initialList);
  useEffect(() => {
    if (live !== "live" || caughtUpWithPage.current) return;
    caughtUpWithPage.current = true;
    void loadList(true);
    refreshCounts(0);
  }, [live, loadList, refreshCounts]);

  /** A sound and a desktop notification (as the person chose) for customer messages in conversations that are mine or nobody's. */
  function alertNewMessage(event: EventEnvelope, message: MessageItem, conversation: (Partial<ConversationItem> & { id: string }) | undefined) {
    const assignee = conversation && "assigned_to" in conversation ? conversation.assigned_to : undefined;
    if (assignee && assignee !== me.id) return;
    // Events replayed after a long disconnection are not news any more.
    if (Date.now() - new Date(event.created_at).getTime() > 120_000) return;
    if (message.conversation_id === selectedId && document.visibilityState === "visible" && document.hasFocus()) return;
    const known = items.find((c) => c.id === message.conversation_id);
    const who = known ? displayName(known.contact) : `+${message.from}`;
    const words = message.text ?? message.media?.caption ?? (message.type === "text" ? "" : t("notify.sentMedia", { type: message.type }));
    notify({ title: t("notify.newMessage", { name: who }), body: words.slice(0, 140), tag: message.conversation_id, href: `/inbox/${message.conversation_id}` });
  }

  const setSelectedMessages = useCallback(
    (update: (list: MessageItem[] | undefined) => MessageItem[]) => {
      if (selectedId) setMessages((prev) => ({ ...prev, [selectedId]: update(prev[selectedId]) }));
    },
    [selectedId],
  );

  /** Opens a conversation that may not be in the list's current filter (from a notification). */
  async function openAnywhere(id: string) {
    open(id);
    if (items.some((c) => c.id === id)) return;
    const result = await requestJson<ConversationItem>("GET", `/v1/conversations/${id}`);
    if (result.ok) setItems((prev) => (prev.some((c) => c.id === id) ? prev : [...prev, result.data].sort(byOrder)));
  }

  // The URL names the open conversation: /inbox/{id}. Opening one adds a history entry, so Back
  // (on a phone, the way back to the list) and Forward walk through what was opened.
  function open(id: string, found?: ConversationItem) {
    // A search result outside the current list joins it while it is open.
    if (found) setItems((prev) => (prev.some((c) => c.id === id) ? prev : [...prev, found].sort(byOrder)));
    if (id !== selectedId) setOpened(null);
    setUnreadAt({ id, count: (items.find((c) => c.id === id) ?? found)?.unread_count ?? 0 });
    setSelectedId(id);
    setMobilePane("conversation");
    // Read at once in the list; the server is told once the thread has loaded, so marking it read
    // never queues in front of the request that opens it.
    setItems((prev) => prev.map((c) => (c.id === id ? { ...c, unread_count: 0 } : c)));
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
  }, [markRead]);

  // A pasted link on a phone: Back should lead to the list, not out of the inbox.
  useEffect(() => {
    if (!initialConversationId) return;
    void requestJson("POST", `/api/inbox/conversations/${initialConversationId}/read`).then(() => {
      setItems((prev) => prev.map((c) => (c.id === initialConversationId ? { ...c, unread_count: 0 } : c)));
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

  // The open conversation may not be in the loaded page of the list: fetch it on its own.
  const inList = items.some((c) => c.id === selectedId);
  useEffect(() => {
    if (!selectedId || inList || listState === "loading") return;
    if (opened && (opened === "missing" ? false : opened.id === selectedId)) return;
    let current = true;
    void requestJson<ConversationItem>("GET", `/v1/conversations/${selectedId}`).then((result) => {
      if (!current) return;
      if (result.ok) setOpened(result.data);
      else if (result.status === 404) setOpened("missing");
    });
    return () => {
      current = false;
    };
  }, [selectedId, inList, listState, opened]);

  async function act(action: "assign" | "close", body?: Record<string, unknown>) {
    if (!selected || selected.status === "closed") return;
    const result = await requestJson<ConversationItem>("POST", `/v1/conversations/${selected.id}/${action}`, body ?? {});
    if (result.ok) upsertConversation(result.data, result.data);
  }

  const step = (by: 1 | -1) => {
    if (items.length === 0) return;
    const index = items.findIndex((c) => c.id === selectedId);
    const next = items[index === -1 ? (by === 1 ? 0 : items.length - 1) : Math.min(items.length - 1, Math.max(0, index + by))];
    if (next && next.id !== selectedId) open(next.id);
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

  return (
    <main className="flex h-full min-h-0 bg-white" data-live={live}>
      {showShortcuts ? <ShortcutsDialog onClose={() => setShowShortcuts(false)} /> : null}
      <section
        aria-label={t("panes.list")}
        className={`${mobilePane === "list" ? "flex" : "hidden"} w-full min-w-0 flex-col border-e border-slate-200 md:flex md:w-80 lg:w-96`}
      >
        {/* Each pane is its own boundary: the browser takes over (hydrates) the server-rendered page
            pane by pane, in short slices it can interrupt, not in one long task. */}
        <Suspense>
          <ConversationList
            items={items}
            filter={filter}
            onFilter={(f) => {
              setFilter(f);
            }}
            query={query}
            onQuery={setQuery}
            selectedId={selectedId}
            onOpen={open}
            state={listState}
            hasMore={Boolean(cursor)}
            onLoadMore={() => listState === "idle" && cursor && void loadList(false, cursor)}
            people={people}
            live={live}
            counts={counts ?? undefined}
            toolbar={
              <div className="flex flex-wrap items-center justify-end gap-1" data-testid="list-toolbar">
                <AttentionSettings />
                <NotificationsBell me={me} onOpen={(id) => void openAnywhere(id)} onRead={() => refreshCounts(0)} />
                <NewConversation onStarted={open} />
                {canSimulate ? <SimulateCustomer onSent={(id: string | undefined) => id && open(id)} /> : null}
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
        </Suspense>
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
            messages={messages[selected.id]}
            setMessages={setSelectedMessages}
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
