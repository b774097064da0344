"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/i18n/use-api-error";
import { requestJson } from "@/lib/client/api";
import { useMentionSuggest } from "./mention-suggest";
import type { NoteItem } from "./team-types";
import type { ConversationItem, Teammate } from "./types";

export type ComposerMode = "reply" | "note";

/** Reply (to the customer) or Note (to teammates only): which box the composer shows. */
export function ComposerModeSwitch({ mode, onMode }: { mode: ComposerMode; onMode: (mode: ComposerMode) => void }) {
  const t = useTranslations("inbox.mode");
  const option = (value: ComposerMode, label: string) => (
    <button
      type="button"
      role="radio"
      aria-checked={mode === value}
      onClick={() => onMode(value)}
      className={`rounded-md px-3 py-1 text-xs font-medium ${
        mode === value ? (value === "note" ? "bg-amber-100 text-amber-900 shadow-sm" : "bg-white text-slate-900 shadow-sm") : "text-slate-600 hover:text-slate-900"
      }`}
    >
      {label}
    </button>
  );
  return (
    <div className="flex items-center gap-2 border-t border-slate-200 bg-white px-3 pt-2">
      <div role="radiogroup" aria-label={t("label")} className="inline-flex gap-1 rounded-lg bg-slate-100 p-1">
        {option("reply", t("reply"))}
        {option("note", t("note"))}
      </div>
      <span className="truncate text-xs text-slate-500">
        {mode === "note" ? t("noteHint") : t("replyHint")}
      </span>
    </div>
  );
}

/** Writes an internal note; "@" suggests teammates, and those still named on sending are notified. */
export function NoteComposer({
  conversation,
  teammates,
  me,
  onSaved,
}: {
  conversation: ConversationItem;
  teammates: Teammate[];
  me: Teammate;
  onSaved: (note: NoteItem) => void;
}) {
  const n = useTranslations("inboxTools.notes");
  const apiError = useApiErrorMessage();
  const [text, setText] = useState("");
  const [mentioned, setMentioned] = useState<Teammate[]>([]);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string>();
  const others = teammates.filter((t) => t.id !== me.id);
  const mention = useMentionSuggest({ text, setText, teammates: others, onMention: (user) => setMentioned((list) => [...list.filter((u) => u.id !== user.id), user]) });

  async function save() {
    if (!text.trim() || saving) return;
    setSaving(true);
    setProblem(undefined);
    // Only those whose "@Name" is still in the text when it is saved.
    const mentions = mentioned.filter((u) => text.includes(`@${u.name}`)).map((u) => u.id);
    const result = await requestJson<NoteItem>("POST", `/v1/conversations/${conversation.id}/notes`, { text, mentions });
    setSaving(false);
    if (result.ok) {
      onSaved(result.data);
      setText("");
      setMentioned([]);
    } else {
      setProblem(result.status === 0 ? apiError(result) : n("notSaved", { error: apiError(result) }));
    }
  }

  return (
    <div className="bg-white p-3 pt-2">
      {problem ? (
        <p role="alert" className="mb-2 rounded-md bg-red-50 px-3 py-1.5 text-xs text-red-800">
          {problem}
        </p>
      ) : null}
      <div className="relative flex items-end gap-2">
        {mention.popover}
        <label htmlFor="note-text" className="sr-only">
          {n("label")}
        </label>
        <textarea
          id="note-text"
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (mention.onKeyDown(e)) return;
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void save();
            }
          }}
          aria-autocomplete="list"
          aria-controls={mention.open ? "mention-suggestions" : undefined}
          placeholder={n("placeholder")}
          className="max-h-40 min-h-10 flex-1 resize-y rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm"
        />
        <Button type="button" onClick={() => void save()} disabled={!text.trim() || saving}>
          {saving ? n("saving") : n("add")}
        </Button>
      </div>
    </div>
  );
}
