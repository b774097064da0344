"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { requestJson } from "@/lib/client/api";
import { ConversationList, type Filter } from "./conversation-list";
import { ConversationView } from "./conversation-view";
import { DetailsPanel } from "./details-panel";
import { publishLiveEvent } from "./live-events";
import { NotificationsBell } from "./notifications-bell";
import { NewConversation } from "./composer-actions/new-conversation";
import { SimulateCustomer } from "./simulate-customer";
import type { ConversationItem, EventEnvelope, MessageItem, Teammate } from "./types";

type Page<T> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };

const activityOf = (c: ConversationItem) => c.last_message_at ?? c.created_at;
const byActivity = (a: ConversationItem, b: ConversationItem) => (activityOf(b) > activityOf(a) ? 1 : activityOf(b) < activityOf(a) ? -1 : b.id > a.id ? 1 : -1);

function matches(filter: Filter, c: ConversationItem, me: string, label: string | null = null) {
  if (label && !c.labels?.some((l) => l.id === label)) return false;
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
}: {
  me: Teammate;
  teammates: Teammate[];
  onlineIds: string[];
  canSimulate: boolean;
}) {
  const [filter, setFilter] = useState<Filter>("all");
  const [query, setQuery] = useState("");
  const [label, setLabel] = useState<string | null>(null);
  const [items, setItems] = useState<ConversationItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [listState, setListState] = useState<"loading" | "idle" | "more" | "error">("loading");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [messages, setMessages] = useState<Record<string, MessageItem[]>>({});
  const [teammates, setTeammates] = useState(initialTeammates);
  const [online, setOnline] = useState(() => new Set(onlineIds));
  const [live, setLive] = useState<"connecting" | "live" | "offline">("connecting");
  const [mobilePane, setMobilePane] = useState<"list" | "conversation" | "details">("list");
  const listRequest = useRef(0);

  const people = useMemo(() => new Map(teammates.map((t) => [t.id, t])), [teammates]);
  const selected = items.find((c) => c.id === selectedId) ?? null;

  const loadList = useCallback(
    async (reset: boolean, after?: string | null) => {
      const request = ++listRequest.current;
      setListState(reset ? "loading" : "more");
      const params = new URLSearchParams({ filter, limit: "30" });
      if (query.trim()) params.set("q", query.trim());
      if (label) params.set("label", label);
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
    [filter, query, label],
  );

  useEffect(() => {
    const timer = setTimeout(() => void loadList(true), query ? 250 : 0);
    return () => clearTimeout(timer);
  }, [loadList, query]);

  const upsertConversation = useCallback(
    (patch: Partial<ConversationItem> & { id: string }, full?: ConversationItem) => {
      setItems((prev) => {
        const existing = prev.find((c) => c.id === patch.id);
        const next = existing ? { ...existing, ...patch } : full;
        if (!next) return prev;
        const rest = prev.filter((c) => c.id !== patch.id);
        if (!matches(filter, next, me.id, label) && next.id !== selectedId) return rest;
        if ((query.trim() || filter === "mentions") && !existing) return rest;
        return [...rest, next].sort(byActivity);
      });
    },
    [filter, me.id, query, selectedId, label],
  );

  const refreshConversation = useCallback(
    async (id: string) => {
      const result = await requestJson<ConversationItem>("GET", `/v1/conversations/${id}`);
      if (result.ok) upsertConversation(result.data, result.data);
      else if (result.status === 404) setItems((prev) => prev.filter((c) => c.id !== id));
    },
    [upsertConversation],
  );

  const markRead = useCallback(async (id: string) => {
    setItems((prev) => prev.map((c) => (c.id === id ? { ...c, unread_count: 0 } : c)));
    await requestJson("POST", `/api/inbox/conversations/${id}/read`);
  }, []);

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

  // Live updates: one EventSource per tab; the browser reconnects with Last-Event-ID itself.
  const handlers = useRef<(event: EventEnvelope) => void>(() => {});
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
    // A customer message arriving in the conversation on screen is read as it arrives.
    const seen = message?.direction === "inbound" && conversationId === selectedId && document.visibilityState === "visible";
    void (seen ? markRead(conversationId) : Promise.resolve()).then(() => refreshConversation(conversationId));
  };
  useEffect(() => {
    handlers.current = onEvent;
  });

  useEffect(() => {
    const source = new EventSource("/v1/events/stream?presence=1");
    source.onopen = () => setLive("live");
    source.onerror = () => setLive(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    source.onmessage = (e) => {
      try {
        handlers.current(JSON.parse(e.data) as EventEnvelope);
      } catch {
        // a malformed frame is skipped; the next one still counts
      }
    };
    return () => source.close();
  }, []);

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
    if (result.ok) setItems((prev) => (prev.some((c) => c.id === id) ? prev : [...prev, result.data].sort(byActivity)));
  }

  function open(id: string, found?: ConversationItem) {
    // A search result outside the current list joins it while it is open.
    if (found) setItems((prev) => (prev.some((c) => c.id === id) ? prev : [...prev, found].sort(byActivity)));
    setSelectedId(id);
    setMobilePane("conversation");
    void markRead(id);
  }

  return (
    <div className="flex h-full min-h-0 bg-white" data-live={live}>
      <section
        aria-label="Conversations"
        className={`${mobilePane === "list" ? "flex" : "hidden"} w-full min-w-0 flex-col border-r border-slate-200 md:flex md:w-80 lg:w-96`}
      >
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
          toolbar={
            <div className="flex items-center gap-1">
              {canSimulate ? <SimulateCustomer onSent={(id: string | undefined) => id && open(id)} /> : null}
              <NewConversation onStarted={open} />
              <NotificationsBell me={me} onOpen={(id) => void openAnywhere(id)} />
            </div>
          }
          label={label}
          onLabel={setLabel}
        />
      </section>
      <section
        aria-label="Conversation"
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
            onBack={() => setMobilePane("list")}
            onDetails={() => setMobilePane("details")}
          />
        ) : (
          <div className="grid flex-1 place-items-center p-8 text-center text-sm text-slate-500">
            <div>
              <p className="font-medium text-slate-700">No conversation selected</p>
              <p className="mt-1">Pick a conversation on the left to read and reply.</p>
            </div>
          </div>
        )}
      </section>
      <aside
        aria-label="Details"
        className={`${mobilePane === "details" ? "flex" : "hidden"} w-full flex-col border-l border-slate-200 lg:flex lg:w-72`}
      >
        <DetailsPanel conversation={selected} teammates={teammates} online={online} me={me} onBack={() => setMobilePane("conversation")} />
      </aside>
    </div>
  );
}
