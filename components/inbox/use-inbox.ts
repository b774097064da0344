"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { requestJson } from "@/lib/client/api";
import { rememberResponse } from "@/lib/client/offline-cache";
import { type Counts, inboxReducer, type InboxView, initialInboxState, type Page } from "./inbox-state";
import { publishLiveEvent } from "./live-bus";
import { useLiveEvents } from "./live-events";
import { notify } from "./notify";
import { type ConversationItem, displayName, type EventEnvelope, INITIAL_LIST_LIMIT, type MessageItem, type Teammate } from "./types";

/**
 * The inbox's data: the list (with the page's first page of it), the threads opened, the tab
 * counts, the team and who is online, kept current by the live event stream. Every request the
 * inbox makes for them goes through here, and every change through `inboxReducer`.
 */
export function useInbox({
  me,
  view,
  teammates: initialTeammates,
  onlineIds,
  initialList,
  initialCounts,
  initialConversationId,
  initialConversation,
}: {
  me: Teammate;
  /** What the list shows now, and the conversation open. */
  view: InboxView;
  teammates: Teammate[];
  onlineIds: string[];
  initialList: Page<ConversationItem> | null;
  initialCounts: Counts | null;
  initialConversationId: string | null;
  initialConversation: ConversationItem | null;
}) {
  const t = useTranslations("inbox");
  const [state, dispatch] = useReducer(inboxReducer, { list: initialList, counts: initialCounts, conversationId: initialConversationId, conversation: initialConversation }, initialInboxState);
  const [teammates, setTeammates] = useState(initialTeammates);
  const [online, setOnline] = useState(() => new Set(onlineIds));
  const people = useMemo(() => new Map(teammates.map((person) => [person.id, person])), [teammates]);
  const { filter, query, label, team, order, selectedId } = view;
  const listRequest = useRef(0);

  const loadList = useCallback(
    async (reset: boolean, after?: string | null) => {
      const request = ++listRequest.current;
      dispatch({ type: "list/request", reset });
      const params = new URLSearchParams({ filter, limit: String(INITIAL_LIST_LIMIT) });
      if (query.trim()) params.set("q", query.trim());
      if (label) params.set("label", label);
      if (team) params.set("team", team);
      if (order !== "activity") params.set("sort", order);
      if (!reset && after) params.set("cursor", after);
      const result = await requestJson<Page<ConversationItem>>("GET", `/api/inbox/conversations?${params}`);
      if (request !== listRequest.current) return;
      dispatch(result.ok ? { type: "list/loaded", reset, page: result.data } : { type: "list/failed" });
    },
    [filter, query, label, team, order],
  );

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
    (patch: Partial<ConversationItem> & { id: string }, full?: ConversationItem) => dispatch({ type: "conversation/upsert", patch, full, view }),
    [view],
  );

  const refreshConversation = useCallback(
    async (id: string) => {
      const result = await requestJson<ConversationItem>("GET", `/v1/conversations/${id}`);
      if (result.ok) upsertConversation(result.data, result.data);
      else if (result.status === 404) dispatch({ type: "conversation/gone", id });
    },
    [upsertConversation],
  );

  // Counts for the filter tabs and the tab title; coalesced, as events come in bursts.
  const countsTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const refreshCounts = useCallback((delay = 300) => {
    clearTimeout(countsTimer.current);
    countsTimer.current = setTimeout(async () => {
      const result = await requestJson<Counts>("GET", "/api/inbox/counts");
      if (result.ok) dispatch({ type: "counts/set", counts: result.data });
    }, delay);
  }, []);
  useEffect(() => {
    if (!initialCounts) refreshCounts(0);
    return () => clearTimeout(countsTimer.current);
  }, [refreshCounts, initialCounts]);

  /** Read at once in the list; the server is told, then the counts follow. */
  const markRead = useCallback(
    async (id: string) => {
      dispatch({ type: "conversation/read", id });
      await requestJson("POST", `/api/inbox/conversations/${id}/read`);
      refreshCounts();
    },
    [refreshCounts],
  );

  /** Read in the list at once, the server not told (yet). */
  const markReadHere = useCallback((id: string) => dispatch({ type: "conversation/read", id }), []);

  /** A conversation from outside the list's current filter (a search result, a notification) joins it. */
  const joinConversation = useCallback((conversation: ConversationItem) => dispatch({ type: "conversation/join", conversation, order }), [order]);

  /** Fetches a conversation the list does not hold and adds it to the list. */
  const fetchIntoList = useCallback(
    async (id: string) => {
      const result = await requestJson<ConversationItem>("GET", `/v1/conversations/${id}`);
      if (result.ok) joinConversation(result.data);
    },
    [joinConversation],
  );

  const setOpened = useCallback((opened: ConversationItem | "missing" | null) => dispatch({ type: "opened/set", opened }), []);

  // The open conversation may not be in the loaded page of the list: it is fetched on its own.
  const inList = state.items.some((c) => c.id === selectedId);
  const { listState, opened } = state;
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
  }, [selectedId, inList, listState, opened, setOpened]);

  /** The open conversation's messages, changed by the conversation view (pages, replies sent). */
  const setSelectedMessages = useCallback(
    (update: (list: MessageItem[] | undefined) => MessageItem[]) => {
      if (selectedId) dispatch({ type: "thread/update", id: selectedId, update });
    },
    [selectedId],
  );

  /** A sound and a desktop notification (as the person chose) for customer messages in conversations that are mine or nobody's. */
  function alertNewMessage(event: EventEnvelope, message: MessageItem, conversation: (Partial<ConversationItem> & { id: string }) | undefined) {
    const assignee = conversation && "assigned_to" in conversation ? conversation.assigned_to : undefined;
    if (assignee && assignee !== me.id) return;
    // Events replayed after a long disconnection are not news any more.
    if (Date.now() - new Date(event.created_at).getTime() > 120_000) return;
    if (message.conversation_id === selectedId && document.visibilityState === "visible" && document.hasFocus()) return;
    const known = state.items.find((c) => c.id === message.conversation_id);
    const who = known ? displayName(known.contact) : `+${message.from}`;
    const words = message.text ?? message.media?.caption ?? (message.type === "text" ? "" : t("notify.sentMedia", { type: message.type }));
    notify({ title: t("notify.newMessage", { name: who }), body: words.slice(0, 140), tag: message.conversation_id, href: `/inbox/${message.conversation_id}` });
  }

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
      if (event.type === "user.created" || event.type === "user.updated") setTeammates((list) => [...list.filter((person) => person.id !== user.id), user]);
      if (event.type === "user.deleted") setTeammates((list) => list.filter((person) => person.id !== user.id));
      return;
    }
    if (message) dispatch({ type: "live/message", event: event.type, message, view, visible: document.visibilityState === "visible" });
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

  return {
    ...state,
    live,
    teammates,
    online,
    people,
    loadList,
    upsertConversation,
    refreshCounts,
    markRead,
    markReadHere,
    joinConversation,
    fetchIntoList,
    setOpened,
    setSelectedMessages,
  };
}
