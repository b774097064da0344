import { or, type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf as rowsOfResult } from "@/db";
import { contactSearchDocument, contacts, conversationNotes, conversations, messageSearch, messages } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { invalidField } from "@/lib/platform/errors";
import type { SearchTerms } from "./pattern";

// The search queries: word and number matches over contacts, messages and notes, and pages of hits.

/**
 * Every word is the start of a word of `expression`, ignoring case and accents: full-text
 * search over chorus_search_vector (migration 0008), which the GIN indexes serve.
 * Folding in the database can turn a letter or digit into punctuation (`½` into `1/2`, `⑴`
 * into `(1)`), so each folded word goes into the query as one quoted term (`'1/2':*`, its
 * quotes and backslashes escaped), never as query syntax: any text is a valid search.
 */
export function matchesWords(expression: unknown, words: string[]): SQL | undefined {
  return vectorMatchesWords(sql`chorus_search_vector(${expression})`, words);
}

/** The same match against a stored search vector (a column holding chorus_search_vector of a text). */
function vectorMatchesWords(vector: unknown, words: string[]): SQL | undefined {
  if (words.length === 0) return undefined;
  const terms = words.map((word) => sql`to_tsquery('simple', ${quotedPrefixTerm(sql`chorus_search_text(${word})`)})`);
  return sql`${vector} @@ (${sql.join(terms, sql` && `)})`;
}

/** `text` as a quoted prefix term of a text-search query: `'…':*`, with `\` and `'` escaped. */
function quotedPrefixTerm(text: SQL): SQL {
  return sql`${"'"} || replace(replace(${text}, ${"\\"}, ${"\\\\"}), ${"'"}, ${"''"}) || ${"':*"}`;
}

/** The number contains these digits (trigram index on contacts.phone). */
export function phoneContains(column: unknown, digits: string): SQL | undefined {
  return digits ? sql`${column} like ${`%${digits}%`}` : undefined;
}

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  return rowsOfResult<T>(await executor.execute(query));
}

/** Ranks of what matched: the customer themself first, then what was written. */
export const CONTACT = 2;
export const TEXT = 1;

export type Hit = { conversation_id: string; tier: number; t_ms: number | string; kind: "contact" | "message" | "note"; source_id: string | null; text: string | null };

/**
 * Where a term can match, each source one index-backed SELECT of
 * (conversation_id, tier, t, kind, source_id); `t` orders matches of one tier, newest first.
 * `periods`, when given, keeps only the messages written in those periods (a text-search query
 * over message_search.periods, served by the same GIN index as the words).
 */
export function matchSources(accountId: string, terms: SearchTerms, periods?: string): SQL[] {
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

function afterPosition(cursor: CursorPosition | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [tier, id] = cursor.id.split(":");
  if (!/^[12]$/.test(tier ?? "") || !id) throw invalidField("cursor", "is not a cursor of this search");
  return sql`where (tier, t, conversation_id) < (${Number(tier)}, ${cursor.t.toISOString()}::timestamptz, ${id})`;
}

/**
 * The page of hits after `cursor` (limit + 1 of them), ranked over every match: each
 * conversation once with its best match (tier, then newest), with the matched text.
 */
export async function pageOfHits(
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
