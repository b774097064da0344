"use client";

import { useTranslations } from "next-intl";
import { useAppFormat } from "@/components/i18n/use-app-format";
import type { Teammate } from "./types";
import type { NoteItem } from "./team-types";

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The note's text with each mention of a teammate (`@Name`) highlighted. */
function withMentions(text: string, names: string[]) {
  if (!names.length) return text;
  const pattern = new RegExp(`(${names.map((n) => `@${escapeRegExp(n)}`).join("|")})`, "g");
  return text.split(pattern).map((part, i) =>
    i % 2 === 1 ? (
      <mark key={i} className="rounded bg-amber-200/70 px-0.5 font-medium text-amber-950">
        {part}
      </mark>
    ) : (
      part
    ),
  );
}

/** An internal note in the thread: teammates only, styled apart from what the customer sees. */
export function NoteBubble({ note, people, meId }: { note: NoteItem; people: Map<string, Teammate>; meId?: string }) {
  const names = note.mentions.map((id) => people.get(id)?.name).filter((n): n is string => Boolean(n));
  const mentionsMe = meId ? note.mentions.includes(meId) : false;
  const t = useTranslations("inboxTools.notes");
  const format = useAppFormat();
  return (
    <div className="flex justify-end" data-testid="note" data-note-id={note.id}>
      <div
        className={`max-w-[85%] rounded-lg border border-dashed px-3 py-2 text-sm shadow-sm sm:max-w-[70%] ${
          mentionsMe ? "border-amber-500 bg-amber-100" : "border-amber-300 bg-amber-50"
        }`}
      >
        <p className="mb-0.5 flex items-center gap-1 text-xs font-medium text-amber-800">
          <svg aria-hidden viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <rect x="4" y="11" width="16" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" />
          </svg>
          <span>{t("byline", { author: note.author.id === meId ? t("you") : note.author.name })}</span>
        </p>
        <p className="whitespace-pre-wrap break-words text-slate-900">{withMentions(note.text, names)}</p>
        <p className="mt-0.5 text-right text-[11px] text-amber-800/80">
          <time dateTime={note.created_at}>{format.clock(note.created_at)}</time>
        </p>
      </div>
    </div>
  );
}
