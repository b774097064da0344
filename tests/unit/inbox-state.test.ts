import { describe, expect, it } from "vitest";
import { inboxReducer, initialInboxState, type InboxState, type InboxView } from "@/components/inbox/inbox-state";
import type { ConversationItem, MessageItem } from "@/components/inbox/types";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString();

function conversation(id: string, minute: number, patch: Partial<ConversationItem> = {}): ConversationItem {
  return {
    id,
    status: "open",
    assigned_to: null,
    assigned_at: null,
    contact: { id: `ctc_${id}`, phone: "447700900000", network_user_id: null, username: null, name: id },
    last_message_at: at(minute),
    last_message_preview: `last words of ${id}`,
    unread_count: 0,
    created_at: at(0),
    updated_at: at(minute),
    closed_at: null,
    snoozed_until: null,
    labels: [],
    service_window_expires_at: null,
    csat: null,
    team_id: null,
    priority: null,
    sla: null,
    ...patch,
  };
}

function message(id: string, conversationId: string, minute: number, patch: Partial<MessageItem> = {}): MessageItem {
  return {
    id,
    conversation_id: conversationId,
    direction: "inbound",
    from: "447700900000",
    to: "14155552671",
    type: "text",
    text: `words of ${id}`,
    status: "received",
    sender: { type: "contact" },
    timestamp: at(minute),
    ...patch,
  };
}

const view = (patch: Partial<InboxView> = {}): InboxView => ({ filter: "all", query: "", label: null, team: null, order: "activity", me: "user_me", selectedId: null, ...patch });

/** Three conversations, newest first: c (minute 30), b (20), a (10); a's thread was opened. */
function loaded(): InboxState {
  const state = initialInboxState({
    list: { data: [conversation("c", 30), conversation("b", 20), conversation("a", 10)], pagination: { next_cursor: null, has_more: false } },
    counts: null,
    conversationId: null,
    conversation: null,
  });
  return inboxReducer(state, { type: "thread/update", id: "a", update: () => [message("m1", "a", 5), message("m2", "a", 10, { direction: "outbound", status: "sent", sender: { type: "user", user_id: "user_me" } })] });
}

describe("the inbox's reducer applies live events", () => {
  it("a customer's new message puts its conversation first and counts it unread", () => {
    const next = inboxReducer(loaded(), { type: "live/message", event: "message.received", message: message("m3", "a", 40, { text: "Is it  still\nin stock?" }), view: view(), visible: true });
    expect(next.items.map((c) => c.id)).toEqual(["a", "c", "b"]);
    const a = next.items[0];
    expect(a.unread_count).toBe(1);
    expect(a.last_message_at).toBe(at(40));
    expect(a.last_message_preview).toBe("Is it still in stock?");
    // Its thread, opened before, has it at the end.
    expect(next.threads.a.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
  });

  it("a new message in the conversation being read is not counted unread", () => {
    const next = inboxReducer(loaded(), { type: "live/message", event: "message.received", message: message("m3", "a", 40), view: view({ selectedId: "a" }), visible: true });
    expect(next.items[0]).toMatchObject({ id: "a", unread_count: 0 });
    // Read in another tab (the page hidden), it counts.
    const hidden = inboxReducer(loaded(), { type: "live/message", event: "message.received", message: message("m3", "a", 40), view: view({ selectedId: "a" }), visible: false });
    expect(hidden.items[0]).toMatchObject({ id: "a", unread_count: 1 });
  });

  it("a status update changes that one message and nothing else", () => {
    const before = loaded();
    const next = inboxReducer(before, { type: "live/message", event: "message.delivered", message: { ...before.threads.a[1], status: "delivered" }, view: view(), visible: true });
    expect(next.threads.a.map((m) => [m.id, m.status])).toEqual([
      ["m1", "received"],
      ["m2", "delivered"],
    ]);
    expect(next.threads.a[0]).toBe(before.threads.a[0]);
    // The list keeps its order and counts.
    expect(next.items).toBe(before.items);
  });

  it("an event for a conversation not loaded changes nothing (the hook fetches that conversation)", () => {
    const before = loaded();
    const next = inboxReducer(before, { type: "live/message", event: "message.received", message: message("m9", "zzz", 50), view: view(), visible: true });
    expect(next).toBe(before);
    // A conversation in the list whose thread was never opened: the list moves, no thread appears.
    const listed = inboxReducer(before, { type: "live/message", event: "message.received", message: message("m8", "b", 50), view: view(), visible: true });
    expect(listed.items.map((c) => c.id)).toEqual(["b", "c", "a"]);
    expect(listed.threads.b).toBeUndefined();
  });

  it("the server's copy of a conversation has the last word, and a closed one leaves the Open list", () => {
    const bumped = inboxReducer(loaded(), { type: "live/message", event: "message.received", message: message("m3", "b", 40), view: view(), visible: true });
    const fetched = inboxReducer(bumped, { type: "conversation/upsert", patch: conversation("b", 40, { unread_count: 3 }), full: conversation("b", 40, { unread_count: 3 }), view: view() });
    expect(fetched.items[0]).toMatchObject({ id: "b", unread_count: 3 });
    const closed = inboxReducer(fetched, { type: "conversation/upsert", patch: { id: "b", status: "closed" }, view: view() });
    expect(closed.items.map((c) => c.id)).toEqual(["c", "a"]);
  });

  it("the tab counts and a read conversation", () => {
    const counts = { all: 3, mine: 0, unassigned: 3, mentions: 0, closed: 0, snoozed: 0, unread: 1 };
    const bumped = inboxReducer(loaded(), { type: "live/message", event: "message.received", message: message("m3", "b", 40), view: view(), visible: true });
    const read = inboxReducer(inboxReducer(bumped, { type: "counts/set", counts }), { type: "conversation/read", id: "b" });
    expect(read.counts).toEqual(counts);
    expect(read.items.find((c) => c.id === "b")?.unread_count).toBe(0);
  });
});
