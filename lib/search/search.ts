import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf as rowsOfResult } from "@/db";
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
function matchSources(accountId: string, terms: SearchTerms): SQL[] {
  const contactMatch = or(matchesWords(contactSearchDocument(contacts), terms.words), phoneContains(contacts.phone, terms.digits));
  const textMatch = matchesWords(messages.text, terms.words);
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
      ? sql`select ${messages.conversationId}, ${TEXT}, ${messages.createdAt}, 'message', ${messages.id}
        from ${messages}
        where ${messages.accountId} = ${accountId} and ${messages.deletedAt} is null and ${textMatch}`
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

/**
 * Conversations whose contact (name, number, email) or any message text contains `q`,
 * case- and accent-insensitively: contact matches first, then the most recent matching text.
 * Each conversation appears once, with its best match and a snippet around it.
 */
export async function searchConversations({ ctx, q, limit, cursor }: { ctx: ServiceContext; q: string; limit: number; cursor?: CursorPosition }) {
  const terms = searchTerms(q);
  const sources = matchSources(ctx.accountId, terms);
  if (sources.length === 0) return toPage([] as Hit[], limit, positionOf, () => undefined as never);
  const db = ctx.db;
  const hits = await rowsOf<Hit>(
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
