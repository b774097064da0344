"use client";

import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { requestJson } from "@/lib/client/api";
import { Avatar } from "./conversation-list";
import { Composer } from "./composer";
import { KnowledgeSuggestions } from "./knowledge-suggestions";
import { LabelChips } from "./label-chips";
import { LabelPicker } from "./label-picker";
import { SnoozeMenu } from "./snooze-menu";
import { MacroMenu } from "./macro-menu";
import { PriorityControl } from "@/components/team/priority-control";
import { SlaBadge } from "@/components/team/sla-badge";
import { TeamControl } from "@/components/team/team-control";
import { BubbleActions } from "./composer-actions/bubble-actions";
import { ComposerBar } from "./composer-actions/composer-bar";
import { MessageBubble } from "./message-bubble";
import { ComposerModeSwitch, type ComposerMode, NoteComposer } from "./note-composer";
import { ThreadItems } from "./thread-items";
import { TypingIndicator } from "./typing";
import { useTeamThread } from "./use-team-thread";
import { asMessage, deliver, discardFromOutbox, useOutbox } from "./outbox";
import { contactAddressLabel, type ConversationItem, displayName, type MessageItem, type Teammate } from "./types";

type Page = { data: MessageItem[]; pagination: { next_cursor: string | null; has_more: boolean } };

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

function fetchMessages(conversationId: string, cursor?: string) {
  const params = new URLSearchParams({ limit: "50" });
  if (cursor) params.set("cursor", cursor);
  return requestJson<Page>("GET", `/v1/conversations/${conversationId}/messages?${params}`);
}

const statusTone: Record<ConversationItem["status"], string> = {
  open: "bg-sky-100 text-sky-800",
  assigned: "bg-brand-100 text-brand-700",
  closed: "bg-slate-200 text-slate-700",
  snoozed: "bg-violet-100 text-violet-800",
};

const statusLabel: Record<ConversationItem["status"], string> = { open: "Open", assigned: "Assigned", closed: "Closed", snoozed: "Snoozed" };

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
}: {
  conversation: ConversationItem;
  me: Teammate;
  people: Map<string, Teammate>;
  messages: MessageItem[] | undefined;
  setMessages: (update: (list: MessageItem[] | undefined) => MessageItem[]) => void;
  onConversation: (c: ConversationItem) => void;
  onBack: () => void;
  onDetails: () => void;
}) {
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadedFrom, setLoadedFrom] = useState<string | null>(null);
  const [loading, setLoading] = useState<"initial" | "older" | null>(messages ? null : "initial");
  const [error, setError] = useState<string>();
  const [acting, setActing] = useState<string>();
  const [replyTo, setReplyTo] = useState<MessageItem | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const keepOffset = useRef<number | null>(null);
  const team = useTeamThread(conversation.id);
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

  const apply = useCallback(
    (older: boolean, result: Awaited<ReturnType<typeof fetchMessages>>) => {
      setLoading(null);
      if (!result.ok) {
        setError(result.message);
        return;
      }
      // The API pages newest first; the view shows oldest at the top.
      const page = [...result.data.data].reverse();
      const from = page[0]?.timestamp;
      if (from) setLoadedFrom((current) => (current && current < from ? current : from));
      if (older && scroller.current) keepOffset.current = scroller.current.scrollHeight - scroller.current.scrollTop;
      // Fetched rows win over what live updates brought meanwhile; unsent drafts stay.
      setMessages((list) => mergeByTime(page, list ?? []));
      setCursor(result.data.pagination.next_cursor);
    },
    [setMessages],
  );

  useEffect(() => {
    let current = true;
    void fetchMessages(conversation.id).then((result) => current && apply(false, result));
    return () => {
      current = false;
    };
  }, [conversation.id, apply]);

  function loadOlder(after: string) {
    setLoading("older");
    void fetchMessages(conversation.id, after).then((result) => apply(true, result));
  }

  // Keep the view pinned to the newest message, or steady while older ones load above.
  useLayoutEffect(() => {
    const node = scroller.current;
    if (!node) return;
    if (keepOffset.current !== null) {
      node.scrollTop = node.scrollHeight - keepOffset.current;
      keepOffset.current = null;
    } else if (stickToBottom.current) {
      node.scrollTop = node.scrollHeight;
    }
  }, [withUnsent, team.notes, team.activity]);

  function onScroll() {
    const node = scroller.current;
    if (!node) return;
    stickToBottom.current = node.scrollHeight - node.scrollTop - node.clientHeight < 80;
    if (node.scrollTop < 120 && cursor && !loading) loadOlder(cursor);
  }

  async function act(action: "assign" | "unassign" | "close" | "reopen", body?: Record<string, unknown>) {
    setActing(action);
    setError(undefined);
    const result = await requestJson<ConversationItem>("POST", `/v1/conversations/${conversation.id}/${action}`, body ?? {});
    setActing(undefined);
    if (result.ok) onConversation(result.data);
    else setError(result.message);
  }

  const name = displayName(conversation.contact);
  const assignee = conversation.assigned_to ? people.get(conversation.assigned_to) : undefined;
  const teammates = [...people.values()].filter((p) => p.id !== conversation.assigned_to).sort((a, b) => a.name.localeCompare(b.name));

  const all = withUnsent;
  const list = useMemo(() => withReactions(all), [all]);
  const byId = useMemo(() => new Map(all.map((m) => [m.id, m])), [all]);
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
      <header className="flex flex-wrap items-center gap-x-2 gap-y-1.5 border-b border-slate-200 px-3 py-2" data-testid="conversation-header">
        <Button type="button" variant="ghost" className="max-md:px-2 max-md:py-1.5 md:hidden" onClick={onBack} aria-label="Back to conversations">
          ←
        </Button>
        <Avatar name={name} className="h-9 w-9 text-sm" />
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{name}</h2>
          <p className="flex items-center gap-2 truncate text-xs text-slate-500">
            <span>{contactAddressLabel(conversation.contact)}</span>
            <span data-testid="conversation-status" className={`rounded-full px-2 py-0.5 font-medium ${statusTone[conversation.status]}`}>
              {statusLabel[conversation.status]}
            </span>
            {assignee ? (
              <span data-testid="conversation-assignee">{assignee.id === me.id ? "Assigned to you" : `Assigned to ${assignee.name}`}</span>
            ) : null}
            <SlaBadge sla={conversation.sla} />
          </p>
          <LabelChips labels={conversation.labels} className="mt-1" />
        </div>
        <div className="flex w-full items-center gap-1.5 overflow-x-auto [&>*]:shrink-0 [&_button]:whitespace-nowrap md:ml-auto md:w-auto md:flex-wrap md:gap-2 md:overflow-visible [&_button]:max-md:px-2.5 [&_button]:max-md:py-1.5 [&_button]:max-md:text-xs [&_select]:max-md:py-1.5 [&_select]:max-md:text-xs">
          {conversation.status === "closed" ? (
            <Button type="button" variant="secondary" onClick={() => act("reopen")} disabled={Boolean(acting)}>
              {acting === "reopen" ? "Reopening…" : "Reopen"}
            </Button>
          ) : (
            <>
              {conversation.assigned_to !== me.id ? (
                <Button type="button" variant="secondary" onClick={() => act("assign", { user_id: me.id })} disabled={Boolean(acting)}>
                  {acting === "assign" ? "Assigning…" : "Assign to me"}
                </Button>
              ) : null}
              <label className="sr-only" htmlFor="assign-to">
                Assign to a teammate
              </label>
              <select
                id="assign-to"
                value=""
                disabled={Boolean(acting)}
                onChange={(e) => e.target.value && act("assign", { user_id: e.target.value })}
                className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
              >
                <option value="">Assign to…</option>
                {teammates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
              {conversation.assigned_to ? (
                <Button type="button" variant="secondary" onClick={() => act("unassign")} disabled={Boolean(acting)}>
                  {acting === "unassign" ? "Unassigning…" : "Unassign"}
                </Button>
              ) : null}
              <Button type="button" variant="secondary" onClick={() => act("close")} disabled={Boolean(acting)}>
                {acting === "close" ? "Closing…" : "Close"}
              </Button>
            </>
          )}
          <LabelPicker conversation={conversation} onConversation={onConversation} />
          <SnoozeMenu conversation={conversation} onConversation={onConversation} />
          <MacroMenu conversation={conversation} onConversation={onConversation} />
          <PriorityControl conversation={conversation} onConversation={onConversation} />
          <TeamControl conversation={conversation} onConversation={onConversation} />
          <Button type="button" variant="ghost" className="lg:hidden" onClick={onDetails}>
            Details
          </Button>
        </div>
      </header>
      {error ? (
        <p role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div
        ref={scroller}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto bg-slate-50 px-3 py-4 sm:px-6"
        role="log"
        aria-label={`Messages with ${name}`}
        aria-busy={Boolean(loading)}
      >
        {/* Over the thread rather than in its flow: what is on screen stays put while older messages load. */}
        {loading === "older" ? (
          <p className="pointer-events-none sticky top-0 z-10 h-0 text-center text-xs text-slate-600">
            <span className="inline-block rounded-full bg-white px-3 py-1 shadow-sm">Loading earlier messages…</span>
          </p>
        ) : null}
        {!cursor && messages?.length ? <p className="mb-3 text-center text-xs text-slate-500">Start of the conversation</p> : null}
        {loading === "initial" && !messages ? <p className="text-center text-sm text-slate-500">Loading messages…</p> : null}
        <ol className="flex flex-col gap-1.5">
          <ThreadItems
            messages={list}
            notes={team.notes}
            activity={team.activity}
            people={people}
            meId={me.id}
            hasOlder={Boolean(cursor)}
            loadedFrom={loadedFrom}
            renderMessage={(message) => (
              <ThreadMessage
                message={message}
                people={people}
                quoted={message.context ? (byId.get(message.context.message_id) ?? null) : undefined}
                conversationId={conversation.id}
                myNumber={myNumber}
                onReply={setReplyTo}
                onQueued={onKindQueued}
              />
            )}
          />
        </ol>
      </div>
      <KnowledgeSuggestions
        conversationId={conversation.id}
        lastInboundId={list.findLast((message) => message.direction === "inbound" && message.type === "text" && !message.deleted_at)?.id ?? null}
      />
      <TypingIndicator conversationId={conversation.id} me={me} />
      <ComposerModeSwitch mode={mode} onMode={setMode} />
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
        <ComposerBar conversation={conversation} messages={all} replyTo={replyTo} onClearReply={() => setReplyTo(null)} onQueued={onKindQueued}>
      <Composer
        me={me}
        conversation={conversation}
        context={replyTo ? { message_id: replyTo.id } : undefined}
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
