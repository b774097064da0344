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

/**
 * The part of `text` around the first place that contains `term`, ignoring case and accents
 * (as the database matched it), with the matched range marked. At most about `width` characters.
 */
export function snippetOf(text: string, term: string, width = 140): Snippet {
  const { folded, origin } = fold(text);
  const needle = fold(term).folded;
  const at = needle ? folded.indexOf(needle) : -1;
  if (at < 0) return { text: text.length > width ? `${text.slice(0, width).trimEnd()}…` : text, highlights: [] };
  const start = origin[at];
  const end = origin[at + needle.length];
  const before = Math.max(0, Math.min(start, Math.floor((width - (end - start)) / 3)));
  let from = start - before;
  // Start at a word boundary when the cut falls inside one.
  if (from > 0) {
    const space = text.lastIndexOf(" ", from);
    if (space >= 0 && from - space < 15) from = space + 1;
  }
  const to = Math.min(text.length, Math.max(end, from + width));
  const prefix = from > 0 ? "…" : "";
  const suffix = to < text.length ? "…" : "";
  return {
    text: `${prefix}${text.slice(from, to)}${suffix}`,
    highlights: [{ start: prefix.length + start - from, end: prefix.length + end - from }],
  };
}
