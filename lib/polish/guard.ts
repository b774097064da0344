// Links, numbers, names and similar tokens are swapped for private-use placeholders while the rules
// run, so no rule can reflow a URL, capitalise an e-mail or split "10:30". Digits are encoded as
// private-use characters too: a placeholder must never look like a letter, a digit or punctuation.
type TokenKind = "link" | "name" | "abbreviation" | "emoticon" | "mention" | "number";
export type Token = { value: string; kind: TokenKind };
export type Guarded = { text: string; tokens: Token[] };

export const placeholderSource = "\uE000[\uE010-\uE019]+\uE001";

function encodePlaceholder(index: number): string {
  const digits = [...String(index)].map((digit) => String.fromCharCode(0xe010 + Number(digit))).join("");
  return `\uE000${digits}\uE001`;
}

export function decodePlaceholder(code: string): number {
  return Number([...code].map((char) => char.charCodeAt(0) - 0xe010).join(""));
}

export function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const linkPattern = new RegExp(
  [
    String.raw`(?:https?:\/\/|www\.)[^\s<>"]+`,
    String.raw`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`,
    String.raw`(?<![\w@.-])(?:[\w-]+\.)+(?:com|net|org|io|co|app|dev|shop|store|es|mx|ar|cl|pe|br|pt|uk|us|info|me|ly)(?![\w-])(?:\/[^\s<>"]*)?`,
    String.raw`(?<![\w.-])[\w-]+\.(?:pdf|jpe?g|png|gif|heic|webp|docx?|xlsx?|csv|txt|zip|mp4|mov|js|ts)(?![\w-])`,
  ].join("|"),
  "giu",
);

const tokenPatterns: Array<{ kind: TokenKind; source: string }> = [
  { kind: "abbreviation", source: String.raw`(?<![\p{L}\p{N}])(?:\p{L}\.){2,}` },
  { kind: "abbreviation", source: String.raw`\b(?:Mr|Mrs|Ms|Dr|Dra|Jr|Sr|Sra|Srta|Dña|St|Av|Avda|vs|etc|Ud|Uds)\.` },
  { kind: "abbreviation", source: String.raw`\b(?:No|N[ºo]|n[ºo]|N[uú]m|n[uú]m)\.(?=\s?[#\d])` },
  { kind: "emoticon", source: String.raw`(?<!\S)(?:[:;]-?[()DPp/]|<3)(?![\p{L}\p{N}])` },
  { kind: "mention", source: String.raw`(?<![\w@])@\w+` },
  {
    kind: "number",
    source: String.raw`(?:(?:US|R|CA|AU|MX|AR|CL|CO)?[$€£¥]\s?)?(?<![\p{L}\p{N}])\.?(?:[#\p{L}\p{N}]+[-_\/])*#?[\p{L}\p{N}]*\d(?:[\p{L}\p{N}]|[.,](?=\d)|[:\/\-–_#](?=[\p{L}\p{N}]))*(?:\s?[€%])?`,
  },
];
const tokenPattern = new RegExp(tokenPatterns.map(({ source }) => `(${source})`).join("|"), "gu");

// Chat spellings that contain a digit are words to expand, not numbers to keep.
const digitWords = new Set(["b4", "2day", "2moro", "2morrow", "2nite", "salu2"]);

export function guardTokens({ text, businessName }: { text: string; businessName: string | null }): Guarded {
  const tokens: Token[] = [];
  const hold = (value: string, kind: TokenKind) => {
    tokens.push({ value, kind });
    return encodePlaceholder(tokens.length - 1);
  };

  let guarded = text.replace(linkPattern, (match) => {
    const trailing = match.match(/[.,;:!?)\]'"’”]+$/)?.[0] ?? "";
    return hold(match.slice(0, match.length - trailing.length), "link") + trailing;
  });
  if (businessName) {
    const namePattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(businessName)}(?![\\p{L}\\p{N}])`, "giu");
    guarded = guarded.replace(namePattern, (match) => hold(match, "name"));
  }
  guarded = guarded.replace(tokenPattern, (match, ...groups: unknown[]) => {
    const index = groups.findIndex((group, position) => position < tokenPatterns.length && group !== undefined);
    const kind = tokenPatterns[index]?.kind ?? "number";
    if (kind === "number" && digitWords.has(match.toLowerCase())) return match;
    return hold(match, kind);
  });
  return { text: guarded, tokens };
}

export function restoreTokens({ text, tokens }: Guarded): string {
  return text.replace(new RegExp(placeholderSource, "g"), (placeholder) => tokens[decodePlaceholder(placeholder.slice(1, -1))].value);
}

export function tidyWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[\s\u200B]+/gu, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
