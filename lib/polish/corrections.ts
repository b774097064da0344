import { englishAccentOptions, englishWordFixes } from "./rules/en";
import { spanishAccentOptions, spanishEstaFollowers, spanishWordFixes } from "./rules/es";
import type { PolishLanguage } from "./rules/language";
import { portugueseAccentOptions, portugueseEstaFollowers, portugueseWordFixes } from "./rules/pt";
import { spellWords } from "./spelling";

/**
 * What the conversation tells the engine: the names to write with their capitals (the contact, the
 * team, places and products the business wrote in its profile) and the dictionary of the draft's
 * language when it is loaded.
 */
export type CorrectionContext = {
  /** Proper names as they are written: "Ana", "Lisboa", "São Paulo". */
  names?: string[];
  /** Words the business uses that no dictionary knows (plant and product names): never "corrected". */
  knownWords?: string[];
  /** What the dictionary says of the draft's misspelled words (`prepareSpelling`); absent, no spelling. */
  spelling?: SpellingFixes;
};

/** Each misspelled lower-case word of a draft with its one sure correction, or null when unsure. */
export type SpellingFixes = Map<string, string | null>;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const fold = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

// Each language's words fixed outright, its "está" followers and its accented letters: in rules/<language>.ts.
const wordFixes: Record<PolishLanguage, Record<string, string>> = { en: englishWordFixes, es: spanishWordFixes, pt: portugueseWordFixes };
const estaFollowers: Record<"es" | "pt", string> = { es: spanishEstaFollowers, pt: portugueseEstaFollowers };
const accentOptions: Record<PolishLanguage, Record<string, string[]>> = { en: englishAccentOptions, es: spanishAccentOptions, pt: portugueseAccentOptions };

const estaPatterns = {
  es: new RegExp(`(?<![\\p{L}\\p{N}])([Ee]st)a(s?)(?= (?:${estaFollowers.es})(?![\\p{L}]))`, "gu"),
  pt: new RegExp(`(?<![\\p{L}\\p{N}])([Ee]st)a(?= (?:${estaFollowers.pt})(?![\\p{L}]))`, "gu"),
};

const placeholder = "\uE000[\uE010-\uE019]+\uE001";
// Portuguese "e" is "and" except where only the verb fits: before a price after "o envio", "o preço"...
// ("o envio e 9,90" → "o envio é 9,90"; "2 vasos e 3 pratos" keeps its "e"), after "não" and "o que",
// and before an adjective that cannot be joined by "and" ("e grátis", "e possível").
const portugueseBeforePrice = new RegExp(
  `(?<=(?:^|[\\s,])(?:(?:o|a|os|as|seu|sua|nosso|nossa) \\p{L}+|preço|valor|total|frete|envio|entrega|taxa|custo|isso|ele|ela) )e(?= (?:R\\$ ?|€ ?)?${placeholder})`,
  "giu",
);
const portugueseVerbE = /(?<=(?:^|[\s,])(?:não|o que|isso|também|já|só) )e(?= (?:\p{L}|$))|(?<=(?:^|\s)\p{L}+ )e(?= (?:grátis|gratis|possível|possivel|impossível|obrigatório|obrigatória|necessário|necessária|verdade)(?![\p{L}]))/giu;

// Spanish "si" answering ("si, claro") is "sí"; the conditional "si" never stands before a comma.
const spanishYes = /(?<=(?:^|[\s¿¡,]))([Ss])i(?=\s*(?:[,!.]|$))/gu;

function applyContextAccents({ line, language }: { line: string; language: PolishLanguage }): string {
  if (language === "pt") {
    return line
      .replace(portugueseBeforePrice, "é")
      .replace(portugueseVerbE, "é")
      .replace(estaPatterns.pt, "$1á");
  }
  if (language === "es") {
    return line
      .replace(estaPatterns.es, (_match, stem: string, plural: string) => `${stem}á${plural}`)
      .replace(spanishYes, (_match, s: string) => `${s}í`);
  }
  return line;
}

const vowels = ["a", "e", "i", "o", "u"];

/** Candidates by how people misspell: swapped letters, a doubled or undoubled letter, a missing accent, a wrong vowel. */
function candidateTiers(word: string, language: PolishLanguage): string[][] {
  const swapped: string[] = [];
  for (let index = 0; index < word.length - 1; index++) {
    if (word[index] !== word[index + 1]) swapped.push(word.slice(0, index) + word[index + 1] + word[index] + word.slice(index + 2));
  }
  const doubled: string[] = [];
  for (let index = 0; index < word.length; index++) {
    if (word[index] === word[index + 1]) doubled.push(word.slice(0, index) + word.slice(index + 1));
    else if (/[bcdfglmnprstz]/.test(word[index])) doubled.push(word.slice(0, index + 1) + word[index] + word.slice(index + 1));
  }
  const accented: string[] = [];
  const suffixes: Array<[RegExp, string]> = language === "pt" ? [[/cao$/, "ção"], [/coes$/, "ções"], [/sao$/, "são"], [/oes$/, "ões"], [/ao$/, "ão"], [/aes$/, "ães"]] : language === "es" ? [[/cion$/, "ción"], [/sion$/, "sión"]] : [];
  for (const [pattern, replacement] of suffixes) if (pattern.test(word)) accented.push(word.replace(pattern, replacement));
  const options = accentOptions[language];
  for (let index = 0; index < word.length; index++) {
    for (const option of options[word[index]] ?? []) accented.push(word.slice(0, index) + option + word.slice(index + 1));
  }
  const vowel: string[] = [];
  if (word.length >= 7) {
    for (let index = 1; index < word.length - 1; index++) {
      if (!vowels.includes(word[index])) continue;
      for (const other of vowels) if (other !== word[index]) vowel.push(word.slice(0, index) + other + word.slice(index + 1));
    }
  }
  return [accented, swapped, doubled, vowel];
}

// A draft is at most 4,096 characters: the words looked up per polish are capped all the same.
const MAX_LOOKUPS = 40;

/**
 * Asks the dictionary about the draft's words in two trips: which are misspelled, then which of their
 * likely corrections exist. A correction is kept only when it is the one candidate of its kind
 * ("recieve" → "receive"); a word the dictionary knows only with a capital takes it ("friday").
 * Null when the language's dictionary is not loaded yet: the draft is then polished without spelling.
 */
export async function prepareSpelling({ text, language, context = {} }: { text: string; language: PolishLanguage; context?: CorrectionContext }): Promise<SpellingFixes | null> {
  const skip = new Set([...(context.knownWords ?? []), ...(context.names ?? []).flatMap((name) => name.split(/\s+/))].map(fold));
  const words = [...new Set(text.match(wordPattern) ?? [])]
    .filter((word) => word.length >= 3 && word === word.toLowerCase() && !wordFixes[language][word] && !skip.has(fold(word)))
    .slice(0, MAX_LOOKUPS);
  const titles = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  const known = await spellWords({ language, words: [...words, ...titles] });
  if (!known) return null;
  const fixes: SpellingFixes = new Map();
  const unsure: Array<{ word: string; tiers: string[][] }> = [];
  words.forEach((word, index) => {
    if (known[index]) return;
    if (known[words.length + index]) fixes.set(word, titles[index]);
    else unsure.push({ word, tiers: candidateTiers(word, language).map((tier) => [...new Set(tier)]) });
  });
  const candidates = unsure.flatMap(({ tiers }) => tiers.flat());
  const exists = await spellWords({ language, words: candidates });
  if (!exists) return fixes;
  let position = 0;
  for (const { word, tiers } of unsure) {
    let answer: string | null = null;
    let decided = false;
    for (const tier of tiers) {
      const found = tier.filter((_, index) => exists[position + index]);
      position += tier.length;
      if (decided) continue;
      if (found.length === 1) answer = found[0];
      if (found.length > 0) decided = true;
    }
    fixes.set(word, answer);
  }
  return fixes;
}

// Given names and places that are also everyday words in one of the three languages.
const nameWords = new Set(
  "rosa flor luz sol mar paz branca clara pilar dolores cruz salvador natal vitória vitoria glória gloria aurora fé esperanza esperança victoria rose will may mark bill grace hope joy pat sunny rich faith art bob jack".split(" "),
);

const greetingWords = /(?:^|\s)(?:hi|hello|hey|dear|thanks|thank you|hola|buenas|gracias|oi|olá|ola|obrigad[oa]|bom dia|boa tarde|boa noite|buenos días|buenas tardes)\s*,?\s*$/iu;

function buildNameMap(names: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const name of names) {
    for (const part of name.split(/[\s,.;:!?()/]+/u)) {
      // A name word starts with a capital and has at least two letters: "Ana", "Lisboa", not "de".
      if (/^\p{Lu}[\p{Ll}\p{M}'’-]+$/u.test(part)) map.set(fold(part), part);
    }
  }
  return map;
}

const wordPattern = /(?<![\p{L}\p{M}\p{N}_@/.\-\uE001'’])\p{L}[\p{L}\p{M}]*(?:['’]\p{L}+)?(?![\p{L}\p{M}\p{N}_@/\-\uE000'’])(?!\.\p{L})/gu;

/**
 * Fixes the words of one guarded line (links, numbers and names already held aside): accents only the
 * context decides, names written with their capitals, then misspellings a dictionary is sure of.
 * Runs after chat abbreviations are written out and before sentences get their capitals.
 */
export function correctLine({ line, language, context }: { line: string; language: PolishLanguage; context: CorrectionContext }): string {
  const names = buildNameMap(context.names ?? []);
  const known = new Set((context.knownWords ?? []).map(fold));
  const accents = wordFixes[language];
  let result = line;
  // A full name is a name wherever it stands, even when its parts are words ("tom baker" → "Tom Baker").
  for (const full of context.names ?? []) {
    if (!/\s/.test(full.trim())) continue;
    const source = [...full.trim()].map((char) => (/\s/.test(char) ? "\\s+" : /\p{L}/u.test(char) ? `[${char.toLowerCase()}${fold(char)}]` : escapeRegExp(char))).join("");
    result = result.replace(new RegExp(`(?<![\\p{L}\\p{M}])${source}(?![\\p{L}\\p{M}])`, "gu"), (match) => (match === match.toLowerCase() ? full.trim() : match));
  }
  result = result.replace(wordPattern, (word, offset: number, whole: string) => {
    // Words someone wrote with capitals inside ("iPhone", "OK") are left as they are.
    if (/\p{Lu}/u.test(word.slice(1)) || word.length < 2) return word;
    const lower = word.toLowerCase();
    const title = word !== lower;
    const name = names.get(fold(word));
    if (name && !title) {
      // A name that is also an everyday word ("rosa", "will") is a name only where a name is expected:
      // after a greeting. (Dictionaries are no judge here: they list "tom" and "lisboa" in lower case.)
      if (!nameWords.has(lower) || greetingWords.test(whole.slice(0, offset))) return name;
      return word;
    }
    if (name || known.has(fold(word))) return word;
    const accented = accents[lower];
    if (accented) return title ? accented.charAt(0).toUpperCase() + accented.slice(1) : accented;
    if (title) return word;
    return context.spelling?.get(word) ?? word;
  });
  result = applyContextAccents({ line: result, language });
  // "oi ana sim entregamos" → "oi Ana, sim, entregamos": a greeting with a name, and a yes or no after it, take their commas.
  result = result.replace(
    /^(\s*[¡¿]?(?:hi|hello|hey|hola|buenas|oi|olá|ola|bom dia|boa tarde|boa noite|buenos días|buenas tardes|good morning|good afternoon) (\p{Lu}[\p{L}\p{M}'’-]*))(?: (sim|não|sí|si|no|yes|claro|ok))?(?= \p{L})/iu,
    (match, head: string, person: string, answer: string | undefined) => {
      if (!names.has(fold(person))) return match;
      return answer ? `${head}, ${answer},` : `${head},`;
    },
  );
  return result;
}
