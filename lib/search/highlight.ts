/** Lower-case without accents, with where each folded character came from in the original. */
function fold(text: string) {
  let folded = "";
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const plain = char.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    for (let i = 0; i < plain.length; i++) origin.push(index);
    folded += plain;
    index += char.length;
  }
  origin.push(text.length);
  return { folded, origin };
}

export type Snippet = { text: string; highlights: { start: number; end: number }[] };

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Where `needles` occur in `folded`: at the start of a word when `wordStart`, else anywhere. */
function occurrences(folded: string, needles: string[], wordStart: boolean) {
  const found: { start: number; end: number }[] = [];
  for (const needle of needles) {
    if (!needle) continue;
    for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + 1)) {
      if (!wordStart || at === 0 || !WORD_CHAR.test(folded[at - 1])) found.push({ start: at, end: at + needle.length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The part of `text` around the first match of any of `needles` (already lower-case and
 * unaccented), with every match inside it marked; at most about `width` characters.
 * `wordStart` matches words by their beginning, as the search does.
 */
export function snippetOf(text: string, needles: string[], { width = 140, wordStart = true } = {}): Snippet {
  const { folded, origin } = fold(text);
  const matches = occurrences(folded, needles, wordStart).map((m) => ({ start: origin[m.start], end: origin[m.end] }));
  if (matches.length === 0) return { text: text.length > width ? `${text.slice(0, width).trimEnd()}…` : text, highlights: [] };
  const first = matches[0];
  let from = Math.max(0, first.start - Math.floor(width / 3));
  // Start at a word boundary when the cut falls inside one.
  if (from > 0) {
    const space = text.lastIndexOf(" ", from);
    if (space >= 0 && from - space < 15) from = space + 1;
  }
  const to = Math.min(text.length, Math.max(first.end, from + width));
  const prefix = from > 0 ? "…" : "";
  const suffix = to < text.length ? "…" : "";
  const highlights: Snippet["highlights"] = [];
  for (const m of matches) {
    if (m.start < from || m.end > to) continue;
    const last = highlights[highlights.length - 1];
    const start = prefix.length + m.start - from;
    const end = prefix.length + m.end - from;
    if (last && start < last.end) last.end = Math.max(last.end, end);
    else highlights.push({ start, end });
  }
  return { text: `${prefix}${text.slice(from, to)}${suffix}`, highlights };
}
