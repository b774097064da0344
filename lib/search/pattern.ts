import { type SQL, sql } from "drizzle-orm";

/** Lower-case without accents (the JavaScript side of chorus_search_text, for splitting words). */
const foldText = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

const MAX_WORDS = 8;

/**
 * What a search box entry looks for: its words, each matched as the start of a word
 * (`entreg` finds `entregá`), and, when it looks like a number (digits, spaces, `+`, dashes),
 * its digits anywhere in a phone number.
 */
export function searchTerms(q: string) {
  const trimmed = q.trim();
  const words = foldText(trimmed)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
  const digits = /^[\d\s+().-]+$/.test(trimmed) ? trimmed.replace(/\D/g, "") : "";
  return { words, digits: digits.length >= 2 ? digits : "" };
}

export type SearchTerms = ReturnType<typeof searchTerms>;

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
export function vectorMatchesWords(vector: unknown, words: string[]): SQL | undefined {
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
