import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { type Executor, getDb, rowsOf as rowsOfResult } from "@/db";
import { contactSearchDocument, contacts, conversationNotes, conversations, messages } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { invalidField } from "@/lib/platform/errors";
import { presentConversation } from "@/lib/conversations/schemas";
import { joinContact, selectConversations } from "@/lib/conversations/store";
import { snippetOf } from "./highlight";
import { matchesWords, phoneContains, type SearchTerms, searchTerms } from "./pattern";
import type { SearchResultOutput } from "./schemas";

/** Ranks of what matched: the customer themself first, then what was written. */
const CONTACT = 2;
const TEXT = 1;

type Hit = { conversation_id: string; tier: number; t_ms: number | string; kind: "contact" | "message" | "note"; source_id: string | null; text: string | null };

/**
 * Where a term can match, each source one index-backed SELECT of
 * (conversation_id, tier, t, kind, source_id); `t` orders matches of one tier, newest first.
 * Notes, once a table of their own, are one more source of tier TEXT.
 */
function matchSources(accountId: string, terms: SearchTerms, since: Date | null): SQL[] {
  const contactMatch = or(matchesWords(contactSearchDocument(contacts), terms.words), phoneContains(contacts.phone, terms.digits));
  const textMatch = matchesWords(messages.text, terms.words);
  const noteMatch = matchesWords(conversationNotes.text, terms.words);
  // Written text is searched from `since` on (see searchConversations); contacts always in full.
  const messagesSince = since ? sql` and ${messages.createdAt} >= ${since.toISOString()}::timestamptz` : sql``;
  const notesSince = since ? sql` and ${conversationNotes.createdAt} >= ${since.toISOString()}::timestamptz` : sql``;
  return [
    contactMatch
      ? // The matching contacts first (their GIN indexes), then their conversations by conversations_contact_idx.
        sql`select ${conversations.id} as conversation_id, ${CONTACT} as tier, coalesce(${conversations.lastMessageAt}, ${conversations.createdAt}) as t, 'contact' as kind, null::text as source_id
        from ${conversations}
        where ${conversations.accountId} = ${accountId}
          and ${conversations.contactId} = any(array(select ${contacts.id} from ${contacts} where ${contacts.accountId} = ${accountId} and (${contactMatch})))`
      : undefined,
    textMatch
      ? sql`select ${messages.conversationId}, ${TEXT}, ${messages.createdAt}, 'message', ${messages.id}
        from ${messages}
        where ${messages.accountId} = ${accountId} and ${messages.deletedAt} is null and ${textMatch}${messagesSince}`
      : undefined,
    noteMatch
      ? // Teammates' internal notes (conversation_notes_text_search_idx).
        sql`select ${conversationNotes.conversationId}, ${TEXT}, ${conversationNotes.createdAt}, 'note', ${conversationNotes.id}
        from ${conversationNotes}
        where ${conversationNotes.accountId} = ${accountId} and ${noteMatch}${notesSince}`
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

/** One page of hits (`limit` + 1 rows, from `cursor` on), written text searched from `since` on. */
function pageQuery(accountId: string, terms: SearchTerms, since: Date | null, limit: number, cursor: CursorPosition | undefined): SQL {
  const sources = matchSources(accountId, terms, since);
  return sql`with hits as (${sql.join(sources, sql` union all `)}),
        best as (
          select distinct on (conversation_id) conversation_id, tier, t, kind, source_id
          from hits order by conversation_id, tier desc, t desc, source_id desc
        )
        select page.*, coalesce(
          (select ${messages.text} from ${messages} where ${messages.id} = page.source_id),
          (select ${conversationNotes.text} from ${conversationNotes} where ${conversationNotes.id} = page.source_id)
        ) as text
        from (
          select conversation_id, tier, floor(extract(epoch from t) * 1000)::float8 as t_ms, kind, source_id
          from best ${afterPosition(cursor) ?? sql``}
          order by tier desc, t desc, conversation_id desc
          limit ${limit + 1}
        ) as page`;
}

/**
 * Conversations whose contact (name, number, email) or any message text contains `q`,
 * case- and accent-insensitively: contact matches first, then the most recent matching text.
 * Each conversation appears once, with its best match and a snippet around it.
 */
export async function searchConversations({ ctx, q, limit, cursor }: { ctx: ServiceContext; q: string; limit: number; cursor?: CursorPosition }) {
  const terms = searchTerms(q);
  if (matchSources(ctx.accountId, terms, null).length === 0) return toPage([] as Hit[], limit, positionOf, () => undefined as never);
  const db = getDb();
  // A common word is in thousands of messages, and ranking them all means reading them all. The
  // newest messages are searched first: the last day, then a window wide enough for a page at the
  // rate matches came in that day, then everything. A conversation with no match in the window
  // has its newest match before the window's start, so it ranks below every conversation found
  // in it: a page is kept when its last row is a contact or lies inside the window.
  const now = Date.now();
  let hits: Hit[] = [];
  let days = terms.words.length ? 1 : null;
  for (let round = 0; ; round++) {
    const since = days === null ? null : new Date(now - days * 86_400_000);
    hits = await rowsOf<Hit>(db, pageQuery(ctx.accountId, terms, since, limit, cursor));
    if (!since || !days) break;
    const last = hits[limit];
    if (last && (Number(last.tier) === CONTACT || Number(last.t_ms) >= since.getTime())) break;
    const found = hits.filter((hit) => Number(hit.tier) !== CONTACT).length;
    // Few or no matches in the window (a rare word, a quiet account): everything, once.
    days = round === 0 && found > 0 ? Math.ceil((days * 2 * (limit + 1)) / found) : null;
    if (days !== null && days > 365) days = null;
  }
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
