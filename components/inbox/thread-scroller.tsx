"use client";

import { useTranslations } from "next-intl";
import { type ReactNode, type RefObject, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ThreadRow, ThreadRowView } from "./thread-items";
import type { MessageItem, Teammate } from "./types";

/** How close to the bottom (px) still counts as "at the newest message". */
const NEAR_BOTTOM = 80;
/** From how many entries on the thread is windowed. */
const WINDOW_FROM = 300;

/**
 * A windowed entry's height before it is measured, close to what it measures (a one-line bubble,
 * the sender's name over a reply, a day label above), so the list's height and the place of
 * what is below move little when it is.
 */
function estimatedHeight(row: ThreadRow | undefined) {
  if (!row) return 62;
  const day = row.day ? 44 : 0;
  if (row.kind !== "message") return day + 48;
  return day + (row.message.direction === "outbound" ? 80 : 62);
}

/** What the conversation view asks of the thread's scroll position. */
export type ThreadScrollerHandle = {
  /** Keeps the entry at the top of the screen where it is while older messages come in above it. */
  holdTopEntry: () => void;
  /** Something the person did (a reply, a note) goes at the bottom: the thread follows it there. */
  followNewest: () => void;
};

/**
 * The thread's scrolling list: where it opens (the newest message, or "New messages"), following
 * what arrives while at the bottom, counting it while scrolled up, holding what is on screen while
 * older messages load above, and asking for them a screen ahead. A long thread is windowed: only
 * the entries on screen (and a few around them) are in the page, and scrolling re-renders this
 * list alone, never the conversation around it.
 */
export function ThreadScroller({
  handle,
  rows,
  messages,
  ready,
  loading,
  atStart,
  label,
  people,
  meId,
  renderMessage,
  onNearTop,
}: {
  handle: RefObject<ThreadScrollerHandle | null>;
  rows: ThreadRow[];
  /** The messages in the thread (stored and unsent), oldest first: what "new below" counts. */
  messages: MessageItem[];
  /** The first page is in. */
  ready: boolean;
  loading: "initial" | "older" | null;
  /** The conversation's first message is loaded: nothing older is left to ask for. */
  atStart: boolean;
  label: string;
  people: Map<string, Teammate>;
  meId: string;
  renderMessage: (message: MessageItem) => ReactNode;
  /** Scrolled to within a screen of the top: time to fetch older messages. */
  onNearTop: () => void;
}) {
  const t = useTranslations("inbox.thread");
  const [unseen, setUnseen] = useState(0);
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
  const [listTop, setListTop] = useState(0);
  // A thread of ordinary length is kept whole, in the page's flow (find-in-page sees all of it);
  // a long one is windowed.
  const windowed = rows.length > WINDOW_FROM;
  // The virtualizer's measurements change between renders by design; nothing here memoises what it returns.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: windowed ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimatedHeight(rows[index]),
    overscan: 8,
    scrollMargin: listTop,
    getItemKey: (index) => rows[index]?.key ?? index,
    // Where entries sit is written to the page by the window itself: a measured height moving
    // the entries below it costs no render, and what scrolling brings into view is rendered in
    // the next frame rather than synchronously inside every scroll event.
    // An entry is measured once, by the ResizeObserver after the browser has laid it out: when it
    // is attached the window takes its known or estimated height instead of reading the page's
    // layout (each read after the previous entry was placed would lay the page out again).
    measureElement: (element, entry, instance) => {
      const box = entry?.borderBoxSize?.[0];
      if (box) return Math.round(box.blockSize);
      const index = instance.indexFromElement(element);
      return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
    },
    useFlushSync: false,
    directDomUpdates: true,
    directDomUpdatesMode: "position",
  });
  // The list element is the window's container while windowed (it writes its height there), and
  // a plain list in the page's flow otherwise.
  const containerRef = virtualizer.containerRef;
  const attachList = useCallback(
    (node: HTMLOListElement | null) => {
      listRef.current = node;
      if (windowed) containerRef(node);
      else {
        containerRef(null);
        node?.style.removeProperty("height");
      }
    },
    [windowed, containerRef],
  );
  // An entry above the screen changing height moves the view by as much, so what is on screen
  // stays; while older messages load, the held entry keeps it steady instead.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item) => !anchor.current && item.start < (scroller.current?.scrollTop ?? 0);

  // The thread's height when it was last laid out: whether the reader was at the bottom of what
  // was there before something arrived, from where the thread stands now (a scroll event comes a
  // frame later, and a message may arrive in between).
  const contentHeight = useRef(0);
  const wasAtBottom = (node: HTMLElement) => contentHeight.current - node.scrollTop - node.clientHeight < NEAR_BOTTOM;

  const pinToBottom = useCallback(() => {
    const node = scroller.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, []);

  useImperativeHandle(handle, () => ({
    holdTopEntry() {
      const node = scroller.current;
      if (!node) return;
      const top = node.getBoundingClientRect().top;
      const first = [...(listRef.current?.children ?? [])].find((li) => li.getBoundingClientRect().bottom > top) as HTMLElement | undefined;
      const key = first?.dataset.key;
      // By its bottom edge: its own top may lose the day label the older messages now carry.
      if (key) anchor.current = { key, delta: first.getBoundingClientRect().bottom - top, until: performance.now() + 500 };
    },
    followNewest() {
      stickToBottom.current = true;
    },
  }));

  // Where the thread stands when what it holds changes: at the newest message it follows what
  // arrives; scrolled up it stays put and counts what arrived below.
  useLayoutEffect(() => {
    const node = scroller.current;
    if (!node) return;
    const newest = messages.at(-1)?.id ?? null;
    if (anchor.current) {
      // Held: see the effect below.
    } else if (placeOpening.current === "pending" && ready) {
      placeOpening.current = "done";
      const divider = rows.findIndex((row) => row.firstUnread);
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
      const before = messages.findIndex((m) => m.id === lastSeenId.current);
      if (before >= 0) setUnseen((n) => n + (messages.length - 1 - before));
    }
    lastSeenId.current = newest;
    contentHeight.current = node.scrollHeight;
  }, [messages, rows, ready, pinToBottom, virtualizer, windowed]);

  // The entry at the top of the screen, held in place while older messages arrive above it. A
  // windowed thread puts it back once, from the window's own measurements, and then lets the
  // window keep it there as entries above are measured (putting it back at every scroll frame
  // would fight the window's own adjustments); a whole thread holds it while heights settle.
  useLayoutEffect(() => {
    const held = anchor.current;
    const node = scroller.current;
    if (!held || !node) return;
    if (performance.now() > held.until) {
      anchor.current = null;
      return;
    }
    if (windowed) {
      // (The total size brings the measurements up to date with the rows just rendered.)
      virtualizer.getTotalSize();
      const index = rows.findIndex((row) => row.key === held.key);
      const end = index >= 0 ? virtualizer.measurementsCache[index]?.end : undefined;
      if (end !== undefined) node.scrollTop = end - held.delta;
      anchor.current = null;
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
  }, [atStart, ready, loading]);

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

  // Older messages just came in and the screen is still within reach of the top (they were
  // fewer than a screen, or the reader kept going up): the next ones are asked for at once, not
  // at the next scroll event, which may never come while the thread stands at its top.
  const nearTop = useRef(onNearTop);
  useEffect(() => {
    nearTop.current = onNearTop;
  });
  useEffect(() => {
    const node = scroller.current;
    if (!node || loading || atStart || !ready) return;
    if (node.scrollTop < Math.max(120, node.clientHeight)) nearTop.current();
  }, [loading, atStart, ready]);

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
    if (node.scrollTop < Math.max(120, node.clientHeight) && !atStart && !loading) onNearTop();
  }

  function jumpToNewest() {
    stickToBottom.current = true;
    setUnseen(0);
    pinToBottom();
  }

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scroller}
        onScroll={onScroll}
        // Contained: laying out what scrolls in never lays out the rest of the inbox again.
        className="min-h-0 flex-1 overflow-y-auto overflow-x-hidden bg-slate-50 px-3 py-4 [contain:content] sm:px-6"
        role="log"
        aria-label={label}
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
          {atStart ? (
            <p className="mb-3 text-center text-xs text-slate-500" data-thread-start="true">
              {t("start")}
            </p>
          ) : null}
          {loading === "initial" && !ready ? <p className="text-center text-sm text-slate-500">{t("loading")}</p> : null}
          <ol ref={attachList} className={windowed ? "relative w-full" : "flex flex-col gap-1.5"}>
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
                    >
                      <ThreadRowView row={row} people={people} meId={meId} renderMessage={renderMessage} />
                    </li>
                  );
                })
              : rows.map((row) => (
                  <li key={row.key} data-key={row.key} className="flex flex-col">
                    <ThreadRowView row={row} people={people} meId={meId} renderMessage={renderMessage} />
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
  );
}
