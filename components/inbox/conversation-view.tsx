"use client";

import { useTranslations } from "next-intl";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
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
import { threadRows } from "./thread-items";
import { ThreadScroller, type ThreadScrollerHandle } from "./thread-scroller";
import { TypingIndicator } from "./typing";
import { useTeamThread } from "./use-team-thread";
import { asMessage, deliver, discardFromOutbox, useOutbox } from "./outbox";
import { type Page, takeOpening } from "./open-request";
import { type ConversationItem, displayName, type MessageItem, type Teammate } from "./types";


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

// Scrolling back goes in the largest pages the API gives: half the requests of a long thread.
const OLDER_PAGE_SIZE = "100";
// …and two of them are put into the thread at once: each time older messages join the thread it
// is laid out again and the window renders a new stretch, so fewer, larger steps cost the
// browser less for the same history.
const OLDER_PAGES_AT_ONCE = 2;

function fetchOlderPage(conversationId: string, cursor: string) {
  return requestJson<Page>("GET", `/v1/conversations/${conversationId}/messages?${new URLSearchParams({ limit: OLDER_PAGE_SIZE, cursor })}`);
}

/** The next older pages, newest first like each page; a later page that fails is left for the next step. */
async function fetchOlder(conversationId: string, cursor: string): Promise<Awaited<ReturnType<typeof fetchOlderPage>>> {
  const first = await fetchOlderPage(conversationId, cursor);
  if (!first.ok) return first;
  let data = first.data;
  for (let page = 1; page < OLDER_PAGES_AT_ONCE && data.pagination.next_cursor; page++) {
    const next = await fetchOlderPage(conversationId, data.pagination.next_cursor);
    if (!next.ok) break;
    data = { data: [...data.data, ...next.data.data], pagination: next.data.pagination };
  }
  return { ...first, data };
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
  const [moreOpen, setMoreOpen] = useState(false);
  const thread = useRef<ThreadScrollerHandle>(null);
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
      if (older) thread.current?.holdTopEntry();
      // Fetched rows win over what live updates brought meanwhile; unsent drafts stay.
      setMessages((list) => mergeByTime(page, list ?? []));
      setCursor(result.data.pagination.next_cursor);
    },
    [setMessages, errorMessage],
  );

  // One request opens the conversation: its newest messages, notes and activity together (sent
  // at the click when the list opened it).
  useEffect(() => {
    let current = true;
    void takeOpening(conversation.id).then((result) => {
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
      thread.current?.followNewest();
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
      <ThreadScroller
        handle={thread}
        rows={rows}
        messages={withUnsent}
        ready={loading === null && messages !== undefined}
        loading={loading}
        atStart={!cursor && Boolean(messages?.length)}
        label={t("messagesWith", { name })}
        people={people}
        meId={me.id}
        renderMessage={renderMessage}
        onNearTop={() => cursor && loadOlder(cursor)}
      />
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
            thread.current?.followNewest();
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
              thread.current?.followNewest();
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
