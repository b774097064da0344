"use client";

import { useTranslations } from "next-intl";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { requestJson } from "@/lib/client/api";
import { Composer } from "./composer";
import { ConversationHeader } from "./conversation-header";
import { KnowledgeSuggestions } from "./knowledge-suggestions";
import { MacroMenu } from "./macro-menu";
import { PriorityControl } from "@/components/team/priority-control";
import { TeamControl } from "@/components/team/team-control";
import { BubbleActions } from "./composer-actions/bubble-actions";
import { ComposerBar } from "./composer-actions/composer-bar";
import { MessageBubble } from "./message-bubble";
import { ComposerModeSwitch, type ComposerMode, NoteComposer } from "./note-composer";
import { threadRows, ThreadRowView } from "./thread-items";
import { TypingIndicator } from "./typing";
import { useTeamThread } from "./use-team-thread";
import { asMessage, deliver, discardFromOutbox, useOutbox } from "./outbox";
import type { ActivityItem, NoteItem } from "./team-types";
import { type ConversationItem, displayName, type MessageItem, type Teammate } from "./types";

type Page<T = MessageItem> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };
/** What opening a conversation brings, in one request. */
type Opened = ConversationItem & { messages: Page; notes: Page<NoteItem>; activity: Page<ActivityItem> };

/** How close to the bottom (px) still counts as "at the newest message". */
const NEAR_BOTTOM = 80;

/**
 * Reactions are not bubbles: each one is shown on the message it reacts to. Live reactions are
 * applied in order over what the server sent, so the view never waits for a refetch.
 */
function withReactions(list: MessageItem[]): MessageItem[] {
  const updates = new Map<string, Map<string, string>>();
  for (const message of list) {
    if (message.type !== "reaction" || !message.reaction) continue;
    const forTarget = updates.get(message.reaction.message_id) ?? new Map<string, string>();
    forTarget.set(message.from, message.reaction.emoji);
    updates.set(message.reaction.message_id, forTarget);
  }
  return list
    .filter((message) => message.type !== "reaction")
    .map((message) => {
      const changes = updates.get(message.id);
      if (!changes) return message;
      const reactions = (message.reactions ?? []).filter((r) => !changes.has(r.from));
      for (const [from, emoji] of changes) if (emoji) reactions.push({ from, emoji });
      return { ...message, reactions };
    });
}

const order = (a: MessageItem, b: MessageItem) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.id < b.id ? -1 : 1);

function mergeByTime(fetched: MessageItem[], current: MessageItem[]) {
  const ids = new Set(fetched.map((m) => m.id));
  return [...fetched, ...current.filter((m) => !ids.has(m.id))].sort(order);
}

const PAGE_SIZE = "50";
/** From how many entries on the thread is windowed. */
const WINDOW_FROM = 300;
// Scrolling back goes in the largest pages the API gives: half the requests of a long thread.
const OLDER_PAGE_SIZE = "100";

function fetchOlder(conversationId: string, cursor: string) {
  return requestJson<Page>("GET", `/v1/conversations/${conversationId}/messages?${new URLSearchParams({ limit: OLDER_PAGE_SIZE, cursor })}`);
}

/** The conversation with its newest messages, notes and activity: one request opens it. */
function fetchOpened(conversationId: string) {
  return requestJson<Opened>("GET", `/v1/conversations/${conversationId}?${new URLSearchParams({ include: "messages,notes,activity", limit: PAGE_SIZE })}`);
}

/** The first of the `unread` newest customer messages of a page (oldest first), where "New messages" goes. */
function firstUnreadOf(page: MessageItem[], unread: number): string | null {
  if (unread <= 0) return null;
  const inbound = page.filter((m) => m.direction === "inbound" && m.type !== "reaction");
  return inbound[Math.max(0, inbound.length - unread)]?.id ?? null;
}

/** The stored message a reply being sent became: same kind, words, file and quote, stored since it was queued (a minute's clock skew allowed). */
function isStoredTwin(stored: MessageItem, pending: MessageItem) {
  return (
    stored.type === pending.type &&
    (stored.text ?? null) === (pending.text ?? null) &&
    (stored.media?.filename ?? null) === (pending.media?.filename ?? null) &&
    (stored.media?.caption ?? null) === (pending.media?.caption ?? null) &&
    (stored.context?.message_id ?? null) === (pending.context?.message_id ?? null) &&
    Date.parse(stored.timestamp) >= Date.parse(pending.timestamp) - 60_000
  );
}

/**
 * One message of the thread with its reply and react buttons. Memoised on values that stay the
 * same while the thread grows, so a page of older messages (or a live one) renders only the
 * bubbles it brings, not the whole thread again.
 */
const ThreadMessage = memo(function ThreadMessage({
  message,
  quoted,
  people,
  conversationId,
  myNumber,
  onReply,
  onQueued,
}: {
  message: MessageItem;
  quoted: MessageItem | null | undefined;
  people: Map<string, Teammate>;
  conversationId: string;
  myNumber: string | null;
  onReply: (message: MessageItem) => void;
  onQueued: (message: MessageItem) => void;
}) {
  return (
    <MessageBubble
      message={message}
      people={people}
      quoted={quoted}
      actions={<BubbleActions conversationId={conversationId} message={message} myNumber={myNumber} onReply={onReply} onQueued={onQueued} />}
    />
  );
});

export function ConversationView({
  conversation,
  me,
  people,
  messages,
  setMessages,
  onConversation,
  onBack,
  onDetails,
  unreadAtOpen = 0,
  onOpened,
  headerActions,
}: {
  conversation: ConversationItem;
  me: Teammate;
  people: Map<string, Teammate>;
  messages: MessageItem[] | undefined;
  setMessages: (update: (list: MessageItem[] | undefined) => MessageItem[]) => void;
  onConversation: (c: ConversationItem) => void;
  onBack: () => void;
  onDetails: () => void;
  /** Customer messages unread when the person opened it: the thread opens at the first of them. */
  unreadAtOpen?: number;
  /** Called once the request that opens it has answered. */
  onOpened?: () => void;
  /** More header controls (priority, macros…): in the row on a desktop, in the `⋯` menu on a phone. */
  headerActions?: React.ReactNode;
}) {
  const t = useTranslations("inbox.thread");
  const errorMessage = useApiErrorMessage();
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadedFrom, setLoadedFrom] = useState<string | null>(null);
  const [loading, setLoading] = useState<"initial" | "older" | null>(messages ? null : "initial");
  const [error, setError] = useState<string>();
  const [replyTo, setReplyTo] = useState<MessageItem | null>(null);
  const [firstUnread, setFirstUnread] = useState<string | null>(null);
  const [unseen, setUnseen] = useState(0);
  const [moreOpen, setMoreOpen] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const stickToBottom = useRef(true);
  // While older messages come in above: the entry that was at the top of the screen, and how far
  // below the thread's top edge its bottom was, so it stays exactly there (until `until`, as heights settle).
  const anchor = useRef<{ key: string; delta: number; until: number; setTop?: number } | null>(null);
  // Where the thread opens once its first page is in: the newest message, or "New messages".
  const placeOpening = useRef<"pending" | "done">("pending");
  const lastSeenId = useRef<string | null>(null);
  const team = useTeamThread(conversation.id);
  const seedTeam = team.seed;
  const [mode, setMode] = useState<ComposerMode>("reply");

  // Replies not yet stored by the server (sending, or kept as "Not sent") sit among the stored ones.
  const outbox = useOutbox(conversation.id);
  const addStored = useCallback(
    (message: MessageItem) => setMessages((current) => [...(current ?? []).filter((m) => m.id !== message.id), message].sort(order)),
    [setMessages],
  );
  // A live update can bring a stored reply before its own request has answered: while that reply
  // is still "sending", its stored twin stands in for it (each stored reply for one at most).
  const unsent = useMemo(() => {
    const twins = (messages ?? []).filter((m) => m.direction === "outbound" && m.sender.user_id === me.id);
    const taken = new Set<string>();
    return outbox
      .filter((entry) => {
        if (entry.state !== "sending") return true;
        const twin = twins.find((m) => !taken.has(m.id) && isStoredTwin(m, entry.message));
        if (twin) taken.add(twin.id);
        return !twin;
      })
      .map((entry) =>
        asMessage(entry, {
          retry: () => void deliver(entry.localId).then((stored) => stored && addStored(stored)),
          discard: () => discardFromOutbox(entry.localId),
        }),
      );
  }, [outbox, addStored, messages, me.id]);
  const withUnsent = useMemo(() => (unsent.length ? [...(messages ?? []), ...unsent].sort(order) : (messages ?? [])), [messages, unsent]);
  const list = useMemo(() => withReactions(withUnsent), [withUnsent]);
  const byId = useMemo(() => new Map(withUnsent.map((m) => [m.id, m])), [withUnsent]);
  const rows = useMemo(
    () => threadRows({ messages: list, notes: team.notes, activity: team.activity, hasOlder: Boolean(cursor), loadedFrom, firstUnreadId: firstUnread }),
    [list, team.notes, team.activity, cursor, loadedFrom, firstUnread],
  );
  // A windowed list: only the entries on screen (and a few around them) are in the page, so a
  // thread of thousands of messages scrolls as lightly as one of fifty.
  const [listTop, setListTop] = useState(0);
  // A thread of ordinary length is kept whole, in the page's flow (find-in-page sees all of it);
  // a long one is windowed.
  const windowed = rows.length > WINDOW_FROM;
  // The virtualizer's measurements change between renders by design; nothing here memoises what it returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: windowed ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => 76,
    overscan: 12,
    scrollMargin: listTop,
    getItemKey: (index) => rows[index]?.key ?? index,
  });
  // An entry above the screen changing height moves the view by as much, so what is on screen
  // stays; while older messages load, the held entry keeps it steady instead.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item) => !anchor.current && item.start < (scroller.current?.scrollTop ?? 0);

  const apply = useCallback(
    (older: boolean, result: { ok: true; data: Page } | { ok: false; status: number; code?: string }) => {
      setLoading(null);
      if (!result.ok) {
        setError(errorMessage(result));
        return;
      }
      // The API pages newest first; the view shows oldest at the top.
      const page = [...result.data.data].reverse();
      const from = page[0]?.timestamp;
      if (from) setLoadedFrom((current) => (current && current < from ? current : from));
      if (older) holdTopEntry();
      // Fetched rows win over what live updates brought meanwhile; unsent drafts stay.
      setMessages((list) => mergeByTime(page, list ?? []));
      setCursor(result.data.pagination.next_cursor);
    },
    [setMessages, errorMessage],
  );

  // One request opens the conversation: its newest messages, notes and activity together.
  useEffect(() => {
    let current = true;
    void fetchOpened(conversation.id).then((result) => {
      if (!current) return;
      onOpened?.();
      if (result.ok) {
        seedTeam({ notes: result.data.notes.data, activity: result.data.activity.data });
        setFirstUnread(firstUnreadOf([...result.data.messages.data].reverse(), unreadAtOpen));
        apply(false, { ok: true, data: result.data.messages });
      } else apply(false, result);
    });
    return () => {
      current = false;
    };
    // Opened once per conversation; the unread count is the one it was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversation.id, apply, seedTeam]);

  function loadOlder(after: string) {
    setLoading("older");
    void fetchOlder(conversation.id, after).then((result) => apply(true, result));
  }

  // The thread's height when it was last laid out: whether the reader was at the bottom of what
  // was there before something arrived, from where the thread stands now (a scroll event comes a
  // frame later, and a message may arrive in between).
  const contentHeight = useRef(0);
  const wasAtBottom = (node: HTMLElement) => contentHeight.current - node.scrollTop - node.clientHeight < NEAR_BOTTOM;

  const pinToBottom = useCallback(() => {
    const node = scroller.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, []);

  // Where the thread stands: at the newest message it follows what arrives; scrolled up it stays
  // put and counts what arrived below; while older messages load above, what is on screen stays.
  useLayoutEffect(() => {
    const node = scroller.current;
    if (!node) return;
    const newest = withUnsent.at(-1)?.id ?? null;
    if (anchor.current) {
      // Held: see the effect below.
    } else if (placeOpening.current === "pending" && loading === null && messages) {
      placeOpening.current = "done";
      const divider = firstUnread ? rows.findIndex((row) => row.firstUnread) : -1;
      const dividerAt =
        divider < 0 ? undefined : windowed ? virtualizer.measurementsCache[divider]?.start : node.querySelector<HTMLElement>('[data-divider="new-messages"]')?.closest("li")?.offsetTop;
      // What is unread, from "New messages" down, is taller than the thread's room: the first of
      // it goes at the top, under "New messages". Otherwise the newest message is in view.
      if (dividerAt !== undefined && node.scrollHeight - dividerAt > node.clientHeight + 32) {
        stickToBottom.current = false;
        if (windowed) virtualizer.scrollToIndex(divider, { align: "start" });
        else node.scrollTop = dividerAt - 8;
      } else pinToBottom();
    } else if (stickToBottom.current && wasAtBottom(node)) {
      pinToBottom();
    } else if (newest && lastSeenId.current && newest !== lastSeenId.current) {
      // Scrolled up, even if the scroll event has not been handled yet: stays put, counts below.
      stickToBottom.current = false;
      const before = withUnsent.findIndex((m) => m.id === lastSeenId.current);
      if (before >= 0) setUnseen((n) => n + (withUnsent.length - 1 - before));
    }
    lastSeenId.current = newest;
    contentHeight.current = node.scrollHeight;
  }, [withUnsent, rows, loading, messages, firstUnread, pinToBottom, virtualizer, windowed]);

  // The entry at the top of the screen, held in place while older messages arrive above it.
  function holdTopEntry() {
    const node = scroller.current;
    if (!node) return;
    const top = node.getBoundingClientRect().top;
    const first = [...(listRef.current?.children ?? [])].find((li) => li.getBoundingClientRect().bottom > top) as HTMLElement | undefined;
    const key = first?.dataset.key;
    // By its bottom edge: its own top may lose the day label the older messages now carry.
    if (key) anchor.current = { key, delta: first.getBoundingClientRect().bottom - top, until: performance.now() + 500 };
  }

  useLayoutEffect(() => {
    const held = anchor.current;
    const node = scroller.current;
    if (!held || !node) return;
    if (performance.now() > held.until) {
      anchor.current = null;
      return;
    }
    if (windowed) {
      const index = rows.findIndex((row) => row.key === held.key);
      const end = index >= 0 ? virtualizer.measurementsCache[index]?.end : undefined;
      if (end !== undefined) node.scrollTop = end - held.delta;
      held.setTop = node.scrollTop;
    } else {
      const li = listRef.current?.querySelector<HTMLElement>(`:scope > [data-key="${CSS.escape(held.key)}"]`);
      if (li) node.scrollTop += li.getBoundingClientRect().bottom - node.getBoundingClientRect().top - held.delta;
      held.setTop = node.scrollTop;
    }
  });

  // Where the list starts inside the scroller (under "Start of the conversation"), for the window.
  // (It moves when "Start of the conversation" or "Loading messages…" comes or goes.)
  useLayoutEffect(() => {
    setListTop(listRef.current?.offsetTop ?? 0);
  }, [cursor, messages, loading]);

  // Whatever changes the room the thread has or the height of what is in it (the suggestions
  // line appearing under it, an image loading, the keyboard opening on a phone) keeps a thread
  // at its newest message there.
  useEffect(() => {
    const node = scroller.current;
    const inner = content.current;
    if (!node || !inner || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current && !anchor.current && wasAtBottom(node)) pinToBottom();
      contentHeight.current = node.scrollHeight;
    });
    observer.observe(node);
    observer.observe(inner);
    return () => observer.disconnect();
  }, [pinToBottom]);

  function onScroll() {
    const node = scroller.current;
    if (!node) return;
    // The person scrolled on their own: the entry held while older messages loaded is let go.
    const held = anchor.current;
    if (held?.setTop !== undefined && Math.abs(node.scrollTop - held.setTop) > 1) anchor.current = null;
    const atBottom = node.scrollHeight - node.scrollTop - node.clientHeight < NEAR_BOTTOM;
    stickToBottom.current = atBottom;
    if (atBottom && unseen) setUnseen(0);
    // Older messages are fetched a screen ahead, so scrolling back rarely waits for them.
    if (node.scrollTop < Math.max(120, node.clientHeight) && cursor && !loading) loadOlder(cursor);
  }

  function jumpToNewest() {
    stickToBottom.current = true;
    setUnseen(0);
    pinToBottom();
  }

  const name = displayName(conversation.contact);
  const renderMessage = (message: MessageItem) => (
    <ThreadMessage
      message={message}
      people={people}
      quoted={message.context ? (byId.get(message.context.message_id) ?? null) : undefined}
      conversationId={conversation.id}
      myNumber={myNumber}
      onReply={setReplyTo}
      onQueued={onKindQueued}
    />
  );
  const all = withUnsent;
  const myNumber = all.find((m) => m.direction === "outbound" && m.from)?.from ?? all.find((m) => m.direction === "inbound")?.to ?? null;
  const onKindQueued = useCallback(
    (message: MessageItem) => {
      stickToBottom.current = true;
      setMessages((current) => [...(current ?? []).filter((m) => m.id !== message.id), message]);
    },
    [setMessages],
  );
  return (
    <>
      <ConversationHeader
        conversation={conversation}
        me={me}
        people={people}
        onConversation={onConversation}
        onBack={onBack}
        onDetails={onDetails}
        onError={setError}
        actions={
          <>
            {headerActions}
            <MacroMenu conversation={conversation} onConversation={onConversation} />
            <PriorityControl conversation={conversation} onConversation={onConversation} />
            <TeamControl conversation={conversation} onConversation={onConversation} />
          </>
        }
      />
      {error ? (
        <p role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div className="relative flex min-h-0 flex-1 flex-col">
        <div
          ref={scroller}
          onScroll={onScroll}
          className="min-h-0 flex-1 overflow-y-auto overflow-x-hidden bg-slate-50 px-3 py-4 sm:px-6"
          role="log"
          aria-label={t("messagesWith", { name })}
          aria-busy={Boolean(loading)}
          data-testid="thread"
        >
          <div ref={content}>
            {/* Over the thread rather than in its flow: what is on screen stays put while older messages load. */}
            {loading === "older" ? (
              <p className="pointer-events-none sticky top-0 z-10 h-0 text-center text-xs text-slate-600">
                <span className="inline-block rounded-full bg-white px-3 py-1 shadow-sm">{t("loadingEarlier")}</span>
              </p>
            ) : null}
            {!cursor && messages?.length ? <p className="mb-3 text-center text-xs text-slate-500" data-thread-start="true">
                {t("start")}
              </p> : null}
            {loading === "initial" && !messages ? <p className="text-center text-sm text-slate-500">{t("loading")}</p> : null}
            <ol ref={listRef} className={windowed ? "relative w-full" : "flex flex-col gap-1.5"} style={windowed ? { height: virtualizer.getTotalSize() } : undefined}>
              {windowed
                ? virtualizer.getVirtualItems().map((item) => {
                    const row = rows[item.index];
                    if (!row) return null;
                    return (
                      <li
                        key={item.key}
                        data-index={item.index}
                        data-key={row.key}
                        ref={virtualizer.measureElement}
                        className="absolute left-0 top-0 flex w-full flex-col pb-1.5"
                        style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
                      >
                        <ThreadRowView row={row} people={people} meId={me.id} renderMessage={renderMessage} />
                      </li>
                    );
                  })
                : rows.map((row) => (
                    <li key={row.key} data-key={row.key} className="flex flex-col">
                      <ThreadRowView row={row} people={people} meId={me.id} renderMessage={renderMessage} />
                    </li>
                  ))}
            </ol>
          </div>
        </div>
        {unseen > 0 ? (
          <button
            type="button"
            onClick={jumpToNewest}
            className="absolute bottom-3 left-1/2 z-10 min-h-11 -translate-x-1/2 rounded-full bg-brand-600 px-4 text-sm font-medium text-white shadow-lg hover:bg-brand-700"
          >
            {t("unseen", { count: unseen })}
          </button>
        ) : null}
      </div>
      <KnowledgeSuggestions
        conversationId={conversation.id}
        lastInboundId={list.findLast((message) => message.direction === "inbound" && message.type === "text" && !message.deleted_at)?.id ?? null}
      />
      <TypingIndicator conversationId={conversation.id} me={me} />
      {/* On a phone the reply box is one row; the rest opens from its ⋯ button. */}
      <div className={moreOpen || mode === "note" ? "max-md:[&_button]:min-h-11" : "max-md:hidden"}>
        <ComposerModeSwitch mode={mode} onMode={setMode} />
      </div>
      {mode === "note" ? (
        <NoteComposer
          conversation={conversation}
          teammates={[...people.values()]}
          me={me}
          onSaved={(note) => {
            stickToBottom.current = true;
            team.addNote(note);
          }}
        />
      ) : (
        <ComposerBar
          conversation={conversation}
          messages={all}
          replyTo={replyTo}
          onClearReply={() => setReplyTo(null)}
          onQueued={onKindQueued}
          secondaryOnPhone={moreOpen}
        >
          <Composer
            me={me}
            conversation={conversation}
            context={replyTo ? { message_id: replyTo.id } : undefined}
            moreOpen={moreOpen}
            onMore={() => setMoreOpen((open) => !open)}
            onSent={() => setReplyTo(null)}
            onQueued={() => {
              // The outbox shows the reply as "sending"; the thread follows it to the bottom.
              stickToBottom.current = true;
            }}
            onReplace={(_localId, message) =>
              // A live update may have brought the stored message first; keep one copy.
              addStored(message)
            }
          />
        </ComposerBar>
      )}
    </>
  );
}
