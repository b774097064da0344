"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { fillCannedReply, shortcutSearchKey } from "@/lib/canned-replies/fill";
import { requestJson } from "@/lib/client/api";
import { SuggestList, useSuggestionKeys } from "./suggest-list";
import type { CannedReplyItem } from "./team-types";
import type { ConversationItem } from "./types";

// "/" then what was typed of a shortcut, at the end of the text: letters of any language, in
// either case, with or without their accents ("/Devolucion" finds "/devolución").
const SHORTCUT_AT_END = /(^|\s)\/([\p{L}\p{M}\p{Nd}_-]*)$/u;

type Loaded = { replies: CannedReplyItem[]; business: string };
let cache: Promise<Loaded> | null = null;

async function loadCanned(): Promise<Loaded> {
  const [replies, profile] = await Promise.all([
    requestJson<{ data: CannedReplyItem[] }>("GET", "/v1/canned-replies?limit=100"),
    requestJson<{ name: string }>("GET", "/v1/config/business-profile"),
  ]);
  if (!replies.ok) throw new Error(replies.message);
  return { replies: replies.data.data, business: profile.ok ? profile.data.name : "" };
}

/**
 * Suggests canned replies while "/shortcut" is typed at the end of a reply; picking one puts
 * its text in place, with the contact's, the agent's and the business's names filled in.
 */
export function useCannedSuggest({
  text,
  setText,
  conversation,
  agentName,
}: {
  text: string;
  setText: (text: string) => void;
  conversation: ConversationItem;
  agentName: string;
}) {
  const t = useTranslations("inboxTools.suggest");
  const match = SHORTCUT_AT_END.exec(text);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const wanted = Boolean(match);
  useEffect(() => {
    if (!wanted || loaded) return;
    // Loaded once per page, on the first "/": the list changes rarely.
    cache ??= loadCanned().catch((error) => {
      cache = null;
      throw error;
    });
    let current = true;
    cache.then((value) => current && setLoaded(value)).catch(() => {});
    return () => {
      current = false;
    };
  }, [wanted, loaded]);

  const query = shortcutSearchKey(match?.[2] ?? "");
  const items = match && loaded ? loaded.replies.filter((r) => shortcutSearchKey(r.shortcut).startsWith(query)).slice(0, 8).map((r) => ({ ...r, label: `/${r.shortcut}`, detail: r.text })) : [];
  const pick = (reply: CannedReplyItem) => {
    if (!match) return;
    const filled = fillCannedReply(reply.text, {
      "contact.name": conversation.contact.name?.trim() ?? "",
      "agent.name": agentName,
      "business.name": loaded?.business ?? "",
    });
    setText(`${text.slice(0, match.index + match[1].length)}${filled}`);
  };
  const keys = useSuggestionKeys(items, pick);
  const popover = keys.open ? (
    <SuggestList id="canned-suggestions" label={t("canned")} items={items} index={keys.index} onPick={pick} onHover={keys.setActive} />
  ) : null;
  return { popover, onKeyDown: keys.onKeyDown };
}

