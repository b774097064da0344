import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf as rowsOfResult } from "@/db";
import { contactSearchDocument, contacts, conversationNotes, conversations, messageSearch, messages } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { invalidField } from "@/lib/platform/errors";
import { presentConversation } from "@/lib/conversations/schemas";
import { joinContact, selectConversations } from "@/lib/conversations/store";
import { snippetOf } from "./highlight";
import { matchesWords, phoneContains, type SearchTerms, searchTerms, vectorMatchesWords } from "./pattern";
import { periodsFrom } from "./periods";
import type { SearchResultOutput } from "./schemas";

/** Ranks of what matched: the customer themself first, then what was written. */
const CONTACT = 2;
const TEXT = 1;

type Hit = { conversation_id: string; tier: number; t_ms: number | string; kind: "contact" | "message" | "note"; source_id: string | null; text: string | null };

/**
 * Where a term can match, each source one index-backed SELECT of
 * (conversation_id, tier, t, kind, source_id); `t` orders matches of one tier, newest first.
 * `periods`, when given, keeps only the messages written in those periods (a text-search query
 * over message_search.periods, served by the same GIN index as the words).
 */
function matchSources(accountId: string, terms: SearchTerms, periods?: string): SQL[] {
  const contactMatch = or(matchesWords(contactSearchDocument(contacts), terms.words), phoneContains(contacts.phone, terms.digits));
  const textMatch = vectorMatchesWords(messageSearch.words, terms.words);
  const noteMatch = matchesWords(conversationNotes.text, terms.words);
  return [
    contactMatch
      ? // The matching contacts first (their GIN indexes), then their conversations by conversations_contact_idx.
        sql`select ${conversations.id} as conversation_id, ${CONTACT} as tier, coalesce(${conversations.lastMessageAt}, ${conversations.createdAt}) as t, 'contact' as kind, null::text as source_id
        from ${conversations}
        where ${conversations.accountId} = ${accountId}
          and ${conversations.contactId} = any(array(select ${contacts.id} from ${contacts} where ${contacts.accountId} = ${accountId} and (${contactMatch})))`
      : undefined,
    textMatch
      ? // message_search holds only messages that are not deleted, one narrow row each.
        sql`select ${messageSearch.conversationId}, ${TEXT}, ${messageSearch.createdAt}, 'message', ${messageSearch.messageId}
        from ${messageSearch}
        where ${messageSearch.accountId} = ${accountId} and ${textMatch}${periods ? sql` and ${messageSearch.periods} @@ ${periods}::tsquery` : sql``}`
      : undefined,
    noteMatch
      ? // Teammates' internal notes (conversation_notes_text_search_idx).
        sql`select ${conversationNotes.conversationId}, ${TEXT}, ${conversationNotes.createdAt}, 'note', ${conversationNotes.id}
        from ${conversationNotes}
        where ${conversationNotes.accountId} = ${accountId} and ${noteMatch}`
      : undefined,
  ].filter((source): source is SQL => Boolean(source));
}

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  return rowsOfResult<T>(await executor.execute(query));
}

// The page position is (tier, t, conversation id); the cursor carries the tier in front of the id.
const positionOf = (hit: Hit): CursorPosition => ({ t: new Date(Number(hit.t_ms)), id: `${hit.tier}:${hit.conversation_id}` });

function afterPosition(cursor: CursorPosition | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [tier, id] = cursor.id.split(":");
  if (!/^[12]$/.test(tier ?? "") || !id) throw invalidField("cursor", "is not a cursor of this search");
  return sql`where (tier, t, conversation_id) < (${Number(tier)}, ${cursor.t.toISOString()}::timestamptz, ${id})`;
}

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

async function pageOfHits(
  db: Executor,
  { accountId, terms, limit, cursor, periods }: { accountId: string; terms: SearchTerms; limit: number; cursor?: CursorPosition; periods?: string },
): Promise<Hit[]> {
  const sources = matchSources(accountId, terms, periods);
  return rowsOf<Hit>(
    db,
    sql`with hits as (${sql.join(sources, sql` union all `)}),
        best as (
          select distinct on (conversation_id) conversation_id, tier, t, kind, source_id
          from hits order by conversation_id, tier desc, t desc, source_id desc
        )
        -- The page's times in milliseconds only once the page is cut (extract(epoch …) is numeric
        -- arithmetic, slow enough to matter when done for every match).
        select page.conversation_id, page.tier, floor(extract(epoch from page.t) * 1000)::float8 as t_ms, page.kind, page.source_id, coalesce(
          (select ${messages.text} from ${messages} where ${messages.id} = page.source_id),
          (select ${conversationNotes.text} from ${conversationNotes} where ${conversationNotes.id} = page.source_id)
        ) as text
        from (
          select conversation_id, tier, t, kind, source_id
          from best ${afterPosition(cursor) ?? sql``}
          order by tier desc, t desc, conversation_id desc
          limit ${limit + 1}
        ) as page
        order by page.tier desc, page.t desc, page.conversation_id desc`,
  );
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
  const rows = ids.length ? await selectConversations(db).where(and(eq(conversations.accountId, ctx.accountId), inArray(conversations.id, ids))) : [];
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
