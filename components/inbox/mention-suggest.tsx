"use client";

import { useTranslations } from "next-intl";
import { SuggestList, useSuggestionKeys } from "./suggest-list";
import type { Teammate } from "./types";

// "@" then what was typed of a name, at the end of the text.
const MENTION_AT_END = /(^|\s)@([\p{L}\p{N}._-]*)$/u;

const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Suggests teammates while "@name" is being typed at the end of a note; picking one writes "@Name ". */
export function useMentionSuggest({ text, setText, teammates, onMention }: { text: string; setText: (text: string) => void; teammates: Teammate[]; onMention: (user: Teammate) => void }) {
  const t = useTranslations("inboxTools.suggest");
  const match = MENTION_AT_END.exec(text);
  const query = match ? fold(match[2]) : null;
  const items =
    query === null
      ? []
      : teammates
          .filter((t) => fold(t.name).split(/\s+/).some((part) => part.startsWith(query)) || fold(t.name).startsWith(query))
          .slice(0, 8)
          .map((t) => ({ ...t, label: t.name, detail: t.email }));
  const pick = (user: Teammate) => {
    if (!match) return;
    setText(`${text.slice(0, match.index + match[1].length)}@${user.name} `);
    onMention(user);
  };
  const keys = useSuggestionKeys(items, pick);
  const popover = keys.open ? (
    <SuggestList id="mention-suggestions" label={t("mention")} items={items} index={keys.index} onPick={pick} onHover={keys.setActive} />
  ) : null;
  return { popover, onKeyDown: keys.onKeyDown, open: keys.open };
}
