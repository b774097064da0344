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
