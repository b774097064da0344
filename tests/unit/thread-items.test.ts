import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ThreadItems, threadRows } from "@/components/inbox/thread-items";
import type { ActivityItem, NoteItem } from "@/components/inbox/team-types";
import type { MessageItem } from "@/components/inbox/types";
import { withIntl } from "@/tests/support/intl";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString();
const message = (id: string, minute: number) =>
  ({ id, conversation_id: "conv_1", direction: "inbound", type: "text", text: `words of ${id}`, timestamp: at(minute), status: "received", sender: { type: "customer" } }) as unknown as MessageItem;
const note = (id: string, minute: number) => ({ id, conversation_id: "conv_1", author: { id: "user_1", name: "Ana" }, text: `note ${id}`, mentions: [], created_at: at(minute) }) satisfies NoteItem;

function thread({ messages, notes = [], hasOlder, loadedFrom }: { messages: MessageItem[]; notes?: NoteItem[]; hasOlder: boolean; loadedFrom: string | null }) {
  const html = renderToStaticMarkup(
    withIntl(createElement(ThreadItems, {
      messages,
      notes,
      activity: [] as ActivityItem[],
      people: new Map(),
      hasOlder,
      loadedFrom,
      renderMessage: (m: MessageItem) => createElement("p", { "data-id": m.id }, m.text),
    })),
  );
  return [...html.matchAll(/data-id="([^"]+)"|note (\w+)/g)].map((match) => match[1] ?? match[2]);
}

describe("ThreadItems", () => {
  // The newest page holds m50 and m51; an early reply's delivery status brought m02 live.
  const page = [message("m50", 50), message("m51", 51)];

  it("keeps an early message a live update brought, and older notes, for the page they belong to", () => {
    expect(thread({ messages: [message("m02", 2), ...page], notes: [note("n01", 1), note("n52", 52)], hasOlder: true, loadedFrom: at(50) })).toEqual(["m50", "m51", "n52"]);
  });

  it("keeps a reply that is not stored yet in view, at the end, however old its clock says it is", () => {
    const unsent = { ...message("local_1", 3), direction: "outbound", local: { state: "error", message: "No connection" } } as unknown as MessageItem;
    expect(thread({ messages: [unsent, ...page], hasOlder: true, loadedFrom: at(50) })).toEqual(["m50", "m51", "local_1"]);
  });

  it("shows a message from the very time of the oldest loaded one", () => {
    expect(thread({ messages: [message("m49", 50), ...page], hasOlder: true, loadedFrom: at(50) })).toEqual(["m49", "m50", "m51"]);
  });

  it("shows everything in time order once no older page is left", () => {
    expect(thread({ messages: [message("m02", 2), ...page], notes: [note("n01", 1)], hasOlder: false, loadedFrom: at(50) })).toEqual(["n01", "m02", "m50", "m51"]);
  });

  it("shows a message the network delivered late in its place when the whole thread is loaded", () => {
    // The second message arrived first and opened the conversation; the first came after.
    expect(thread({ messages: [message("m02", 2), message("m01", 1)], hasOlder: false, loadedFrom: at(2) })).toEqual(["m01", "m02"]);
  });

  it("shows what it has before the first page has loaded", () => {
    expect(thread({ messages: [message("m02", 2), ...page], hasOlder: false, loadedFrom: null })).toEqual(["m02", "m50", "m51"]);
  });
});

describe("threadRows", () => {
  it("puts “New messages” above the first unread message only, and a day label on the first entry of each day", () => {
    const rows = threadRows({ messages: [message("m01", 1), message("m02", 2), message("m03", 3)], notes: [], activity: [], hasOlder: false, loadedFrom: null, firstUnreadId: "m02" });
    expect(rows.map((row) => [row.id, row.firstUnread, Boolean(row.day)])).toEqual([
      ["m01", false, true],
      ["m02", true, false],
      ["m03", false, false],
    ]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(3);
  });
});
