import type { Filter } from "./conversation-list";
import { comparatorOf, type ListOrder } from "./list-order";
import type { ConversationItem, MessageItem } from "./types";

/**
 * The inbox's state in one place: the list, the threads opened so far and the tab counts, and
 * every change to them (a page of the list, a live event, a reply sent) as one action through
 * one reducer. Pure: the requests that bring the data are `useInbox`'s.
 */
export type Page<T> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };
export type Counts = Record<Filter, number> & { unread: number };

export type InboxState = {
  /** The loaded pages of the list, in its order. */
  items: ConversationItem[];
  cursor: string | null;
  listState: "loading" | "idle" | "more" | "error";
  /** The open conversation when the loaded list does not hold it (a link, another filter). */
  opened: ConversationItem | "missing" | null;
  counts: Counts | null;
  /** Each opened conversation's messages, oldest first (absent until it was opened). */
  threads: Record<string, MessageItem[]>;
};

/** What the list shows right now: which conversations belong in it, in which order. */
export type InboxView = { filter: Filter; query: string; label: string | null; team: string | null; order: ListOrder; me: string; selectedId: string | null };

type ConversationPatch = Partial<ConversationItem> & { id: string };

type InboxAction =
  | { type: "list/request"; reset: boolean }
  | { type: "list/loaded"; reset: boolean; page: Page<ConversationItem> }
  | { type: "list/failed" }
  /** A conversation changed (an action's answer, a refetch): updated in place, or joining or leaving the list as the view says. */
  | { type: "conversation/upsert"; patch: ConversationPatch; full?: ConversationItem; view: InboxView }
  /** A conversation opened from outside the list (a search result, a notification) joins it while open. */
  | { type: "conversation/join"; conversation: ConversationItem; order: ListOrder }
  | { type: "conversation/gone"; id: string }
  | { type: "conversation/read"; id: string }
  | { type: "opened/set"; opened: ConversationItem | "missing" | null }
  | { type: "counts/set"; counts: Counts }
  | { type: "thread/update"; id: string; update: (list: MessageItem[] | undefined) => MessageItem[] }
  /** A live message event: `visible` when the person is looking at the inbox. */
  | { type: "live/message"; event: string; message: MessageItem; view: InboxView; visible: boolean };

export function initialInboxState({
  list,
  counts,
  conversationId,
  conversation,
}: {
  list: Page<ConversationItem> | null;
  counts: Counts | null;
  conversationId: string | null;
  conversation: ConversationItem | null;
}): InboxState {
  // Opening a conversation reads it: the list shows it read from the first paint.
  return {
    items: (list?.data ?? []).map((c) => (c.id === conversationId ? { ...c, unread_count: 0 } : c)),
    cursor: list?.pagination.next_cursor ?? null,
    listState: list ? "idle" : "loading",
    opened: conversation && conversation.id === conversationId ? { ...conversation, unread_count: 0 } : null,
    counts,
    threads: {},
  };
}

/** Whether a conversation belongs in the list as the view filters it. */
function matches(view: InboxView, c: ConversationItem) {
  const { filter, me, label, team } = view;
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

const byTime = (a: MessageItem, b: MessageItem) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.id < b.id ? -1 : 1);

/** A message into its thread (a newer copy of one replaces it); a thread not opened yet stays unloaded. */
function mergeMessage(threads: InboxState["threads"], message: MessageItem): InboxState["threads"] {
  const list = threads[message.conversation_id];
  if (!list) return threads;
  const index = list.findIndex((m) => m.id === message.id);
  const next = index >= 0 ? list.map((m, i) => (i === index ? { ...m, ...message, local: undefined } : m)) : [...list, message];
  next.sort(byTime);
  return { ...threads, [message.conversation_id]: next };
}

function upsert(state: InboxState, patch: ConversationPatch, full: ConversationItem | undefined, view: InboxView): InboxState {
  const opened = state.opened && state.opened !== "missing" && state.opened.id === patch.id ? { ...state.opened, ...patch } : state.opened;
  const existing = state.items.find((c) => c.id === patch.id);
  const next = existing ? { ...existing, ...patch } : full;
  if (!next) return { ...state, opened };
  const rest = state.items.filter((c) => c.id !== patch.id);
  let items: ConversationItem[];
  if (!matches(view, next) && next.id !== view.selectedId) items = rest;
  else if ((view.query.trim() || view.filter === "mentions") && !existing) items = rest;
  else items = [...rest, next].sort(comparatorOf(view.order));
  return { ...state, opened, items };
}

export function inboxReducer(state: InboxState, action: InboxAction): InboxState {
  switch (action.type) {
    case "list/request":
      return { ...state, listState: action.reset ? "loading" : "more" };
    case "list/loaded": {
      const prev = state.items;
      const items = action.reset ? action.page.data : [...prev, ...action.page.data.filter((c) => !prev.some((p) => p.id === c.id))];
      return { ...state, items, cursor: action.page.pagination.next_cursor, listState: "idle" };
    }
    case "list/failed":
      return { ...state, listState: "error" };
    case "conversation/upsert":
      return upsert(state, action.patch, action.full, action.view);
    case "conversation/join":
      if (state.items.some((c) => c.id === action.conversation.id)) return state;
      return { ...state, items: [...state.items, action.conversation].sort(comparatorOf(action.order)) };
    case "conversation/gone":
      return { ...state, items: state.items.filter((c) => c.id !== action.id) };
    case "conversation/read":
      if (!state.items.some((c) => c.id === action.id && c.unread_count !== 0)) return state;
      return { ...state, items: state.items.map((c) => (c.id === action.id ? { ...c, unread_count: 0 } : c)) };
    case "opened/set":
      return { ...state, opened: action.opened };
    case "counts/set":
      return { ...state, counts: action.counts };
    case "thread/update":
      return { ...state, threads: { ...state.threads, [action.id]: action.update(state.threads[action.id]) } };
    case "live/message": {
      const { message, view } = action;
      const threads = mergeMessage(state.threads, message);
      // A customer's new message puts its conversation first, unread unless it is the one being
      // read; the server's copy of the conversation follows and has the last word.
      const existing = action.event === "message.received" && message.direction === "inbound" ? state.items.find((c) => c.id === message.conversation_id) : undefined;
      if (!existing) return threads === state.threads ? state : { ...state, threads };
      const read = view.selectedId === existing.id && action.visible;
      const newest = !existing.last_message_at || existing.last_message_at < message.timestamp;
      const words = message.text ?? message.media?.caption ?? null;
      const patch: ConversationPatch = {
        id: existing.id,
        unread_count: read ? 0 : existing.unread_count + 1,
        ...(newest ? { last_message_at: message.timestamp, ...(words ? { last_message_preview: words.replace(/\s+/g, " ").trim().slice(0, 120) } : {}) } : {}),
      };
      return upsert({ ...state, threads }, patch, undefined, view);
    }
  }
}
