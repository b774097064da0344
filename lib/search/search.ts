import type { Executor } from "@/db";
import type { ServiceContext } from "@/lib/auth/context";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { presentConversation } from "@/lib/conversations/schemas";
import { findConversationsByIds, joinContact } from "@/lib/conversations/store";
import { snippetOf } from "./highlight";
import { type SearchTerms, searchTerms } from "./pattern";
import { periodsFrom } from "./periods";
import type { SearchResultOutput } from "./schemas";
import { CONTACT, type Hit, matchSources, pageOfHits, TEXT } from "./store";

// The page position is (tier, t, conversation id); the cursor carries the tier in front of the id.
const positionOf = (hit: Hit): CursorPosition => ({ t: new Date(Number(hit.t_ms)), id: `${hit.tier}:${hit.conversation_id}` });

/** How far back from the page's start the written text is searched first, widening until the page is full. */
const WINDOWS_MS = [3_600_000, 86_400_000, 31 * 86_400_000, 366 * 86_400_000];

/**
 * The page of hits after `cursor` (limit + 1 of them), ranked over every match. Written text is
 * searched in windows from the page's start backwards (the last hour, day, month, year, then
 * all): a window holds every match from its start on, so each conversation found in it has its
 * newest match there, and a conversation it misses ranks below every one whose match lies in
 * it. A page whose last row lies inside the window is therefore the page of the whole search;
 * otherwise the next, wider window is asked. A common word finds a full page in the last hour
 * or day without reading its older matches; a rare one reads all of its few matches.
 */
async function newestHits(db: Executor, { accountId, terms, limit, cursor }: { accountId: string; terms: SearchTerms; limit: number; cursor?: CursorPosition }): Promise<Hit[]> {
  const now = new Date();
  const [tier] = cursor?.id.split(":") ?? [];
  const anchor = cursor && tier === String(TEXT) ? cursor.t.getTime() : now.getTime();
  // Without words there is no written text to match, only a number.
  for (const width of terms.words.length ? WINDOWS_MS : []) {
    const { query, coveredFrom } = periodsFrom(new Date(anchor - width), now);
    const hits = await pageOfHits(db, { accountId, terms, limit, cursor, periods: query });
    const last = hits.at(-1);
    if (hits.length > limit && last && (last.tier === CONTACT || Number(last.t_ms) >= coveredFrom.getTime())) return hits;
  }
  return pageOfHits(db, { accountId, terms, limit, cursor });
}

/**
 * Conversations whose contact (name, number, email) or any message text contains `q`,
 * case- and accent-insensitively: contact matches first, then the most recent matching text.
 * Each conversation appears once, with its best match and a snippet around it.
 */
export async function searchConversations({ ctx, q, limit, cursor }: { ctx: ServiceContext; q: string; limit: number; cursor?: CursorPosition }) {
  const terms = searchTerms(q);
  if (matchSources(ctx.accountId, terms).length === 0) return toPage([] as Hit[], limit, positionOf, () => undefined as never);
  const db = ctx.db;
  const hits = await newestHits(db, { accountId: ctx.accountId, terms, limit, cursor });
  const shown = hits.slice(0, limit);
  const ids = shown.map((h) => h.conversation_id);
  const rows = ids.length ? await findConversationsByIds(db, { accountId: ctx.accountId, ids }) : [];
  const byId = new Map(rows.map((row) => [row.conversation.id, joinContact(row)]));
  const present = (hit: Hit): SearchResultOutput => {
    const conversation = byId.get(hit.conversation_id)!;
    if (hit.kind === "note") {
      const snippet = snippetOf(hit.text ?? "", terms.words);
      return { conversation: presentConversation(conversation), match: { field: "note", message_id: null, snippet: snippet.text, highlights: snippet.highlights } };
    }
    if (hit.kind === "message") {
      const snippet = snippetOf(hit.text ?? "", terms.words);
      return { conversation: presentConversation(conversation), match: { field: "message", message_id: hit.source_id, snippet: snippet.text, highlights: snippet.highlights } };
    }
    const { name, phone, username } = conversation.contact;
    const candidates = [
      { field: "name" as const, snippet: snippetOf(name ?? "", terms.words) },
      { field: "phone" as const, snippet: snippetOf(phone ?? "", [terms.digits], { wordStart: false }) },
      { field: "username" as const, snippet: snippetOf(username ?? "", terms.words) },
    ];
    const found = candidates.find((c) => c.snippet.highlights.length > 0);
    const field = found ?? { field: "email" as const, snippet: { text: name ?? phone ?? username ?? "", highlights: [] } };
    return { conversation: presentConversation(conversation), match: { field: field.field, message_id: null, snippet: field.snippet.text, highlights: field.snippet.highlights } };
  };
  // A conversation deleted between the two reads is left out of the page.
  return toPage(hits.filter((h, i) => i >= limit || byId.has(h.conversation_id)), limit, positionOf, present);
}
