import { type SQL, sql } from "drizzle-orm";

/**
 * What a search term matches: `text` contains it once both are unaccented and lower-cased
 * (chorus_search_text, migration 0008, backs a trigram index), and a number typed with
 * spaces, `+` or dashes matches the digits it is made of.
 */
export function searchTerm(q: string) {
  const trimmed = q.trim();
  const digits = /^[\d\s+().-]+$/.test(trimmed) ? trimmed.replace(/\D/g, "") : "";
  const term = digits.length >= 2 ? digits : trimmed;
  const escaped = term.replace(/[%_\\]/g, (c) => `\\${c}`);
  return { term, pattern: `%${escaped}%` };
}

/** `chorus_search_text(expr) like '%term%'`, the form the trigram indexes serve. */
export function containsTerm(expression: SQL | SQL.Aliased | unknown, pattern: string): SQL {
  return sql`chorus_search_text(${expression}) like chorus_search_text(${pattern})`;
}
