import { useNow, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { useAppFormat } from "@/components/i18n/use-app-format";
import { ActivityLine } from "./activity-item";
import { NoteBubble } from "./note-item";
import type { ActivityItem, NoteItem } from "./team-types";
import type { MessageItem, Teammate } from "./types";

type Entry =
  | { kind: "message"; at: string; id: string; message: MessageItem }
  | { kind: "note"; at: string; id: string; note: NoteItem }
  | { kind: "activity"; at: string; id: string; activity: ActivityItem };

// The local day of each time seen: a long thread's timeline is rebuilt at every page of older
// messages, and parsing thousands of dates each time would cost more than the page itself.
const days = new Map<string, string>();
function dayKey(iso: string) {
  let day = days.get(iso);
  if (day === undefined) {
    if (days.size > 50_000) days.clear();
    day = new Date(iso).toDateString();
    days.set(iso, day);
  }
  return day;
}

/** A day separator's words: "Today", "Yesterday", else the date as the reader's locale writes it. */
function DayLabel({ iso }: { iso: string }) {
  const t = useTranslations("inbox.thread");
  const format = useAppFormat();
  const date = new Date(iso);
  const today = useNow({ updateInterval: 60_000 });
  const yesterday = new Date(today.getTime() - 86_400_000);
  const label =
    date.toDateString() === today.toDateString()
      ? t("today")
      : date.toDateString() === yesterday.toDateString()
        ? t("yesterday")
        : date.getFullYear() === today.getFullYear()
          ? format.dayOfYear(iso)
          : format.day(iso);
  return (
    <div className="my-3 flex justify-center" role="separator" aria-label={label}>
      <time dateTime={iso} className="rounded-full bg-white px-3 py-0.5 text-xs text-slate-500 shadow-sm">
        {label}
      </time>
    </div>
  );
}

export type ThreadRow = Entry & {
  key: string;
  /** The entry's time when it starts a new day (the separator above it shows that day). */
  day: string | null;
  /** "New messages" goes above this entry. */
  firstUnread: boolean;
};

/**
 * Messages, internal notes and the activity trail of a conversation in one timeline, by time.
 * While older messages are still to be loaded, whatever is older than the oldest message loaded
 * from the server waits with them: notes, the activity trail, and a message a live update
 * brought (an early reply's delivery status, say). So the timeline never shows an entry above a
 * gap, as if nothing had happened in between.
 */
export function threadRows({
  messages,
  notes,
  activity,
  hasOlder,
  loadedFrom,
  firstUnreadId = null,
}: {
  messages: MessageItem[];
  notes: NoteItem[];
  activity: ActivityItem[];
  hasOlder: boolean;
  /** The time of the oldest message of the pages loaded so far. */
  loadedFrom: string | null;
  /** The first message unread when the conversation was opened: "New messages" goes above it. */
  firstUnreadId?: string | null;
}): ThreadRow[] {
  const shown = (at: string) => !hasOlder || !loadedFrom || at >= loadedFrom;
  const entries: Entry[] = [
    // A reply not stored yet (sending, or kept as "Not sent") stays in view, at the end.
    ...messages.filter((m) => m.local || shown(m.timestamp)).map((message): Entry => ({ kind: "message", at: message.timestamp, id: message.id, message })),
    ...notes.filter((n) => shown(n.created_at)).map((note): Entry => ({ kind: "note", at: note.created_at, id: note.id, note })),
    ...activity.filter((a) => shown(a.created_at)).map((item): Entry => ({ kind: "activity", at: item.created_at, id: item.id, activity: item })),
  ];
  // Unsent drafts keep their place at the end; everything else by time, then id.
  entries.sort((a, b) => {
    const localA = a.kind === "message" && a.message.local ? 1 : 0;
    const localB = b.kind === "message" && b.message.local ? 1 : 0;
    if (localA !== localB) return localA - localB;
    return a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : 1;
  });
  const dayOf = entries.map((entry) => dayKey(entry.at));
  return entries.map((entry, index) => ({
    ...entry,
    key: `${entry.kind}-${entry.id}`,
    day: index === 0 || dayOf[index] !== dayOf[index - 1] ? entry.at : null,
    firstUnread: entry.kind === "message" && entry.id === firstUnreadId,
  }));
}

/** One entry of the timeline, with the day it starts and "New messages" above it when so. */
export function ThreadRowView({
  row,
  people,
  meId,
  renderMessage,
}: {
  row: ThreadRow;
  people: Map<string, Teammate>;
  meId?: string;
  renderMessage: (message: MessageItem) => ReactNode;
}) {
  const t = useTranslations("inbox.thread");
  return (
    <>
      {row.day ? <DayLabel iso={row.day} /> : null}
      {row.firstUnread ? (
        <div className="my-2 flex items-center gap-2 text-xs font-medium text-brand-700" role="separator" aria-label={t("newMessages")} data-divider="new-messages">
          <span className="h-px flex-1 bg-brand-300" />
          {t("newMessages")}
          <span className="h-px flex-1 bg-brand-300" />
        </div>
      ) : null}
      {row.kind === "message" ? (
        renderMessage(row.message)
      ) : row.kind === "note" ? (
        <NoteBubble note={row.note} people={people} meId={meId} />
      ) : (
        <ActivityLine activity={row.activity} meId={meId} />
      )}
    </>
  );
}

/** The whole timeline as list items (a short thread, or a page rendered on the server). */
export function ThreadItems({
  people,
  meId,
  renderMessage,
  ...timeline
}: Parameters<typeof threadRows>[0] & {
  people: Map<string, Teammate>;
  meId?: string;
  renderMessage: (message: MessageItem) => ReactNode;
}) {
  return (
    <>
      {threadRows(timeline).map((row) => (
        <li key={row.key} className="flex flex-col">
          <ThreadRowView row={row} people={people} meId={meId} renderMessage={renderMessage} />
        </li>
      ))}
    </>
  );
}
