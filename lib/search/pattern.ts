import { type SQL, sql } from "drizzle-orm";

/** Lower-case without accents (the JavaScript side of chorus_search_text, for splitting words). */
export const foldText = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

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
 * The words hold only letters and digits, so the query text cannot carry operators.
 */
export function matchesWords(expression: unknown, words: string[]): SQL | undefined {
  if (words.length === 0) return undefined;
  const query = words.map((word) => `${word}:*`).join(" & ");
  return sql`chorus_search_vector(${expression}) @@ to_tsquery('simple', chorus_search_text(${query}))`;
}

/** The number contains these digits (trigram index on contacts.phone). */
export function phoneContains(column: unknown, digits: string): SQL | undefined {
  return digits ? sql`${column} like ${`%${digits}%`}` : undefined;
}
