// The rules engine: deterministic polishing in English, Spanish and Portuguese. Each language's
// words and patterns are in its own file (en.ts, es.ts, pt.ts); the courtesy patterns the three
// share are in courtesy.ts.
import { courtesySentences, type CourtesyPhrases, helpOfferPattern, openingThanksPattern, signOffPhrase } from "./courtesy";
import { englishAbbreviations, englishCourtesy, englishGreeting, englishLowercaseOnly, englishQuestionStarts } from "./en";
import {
  spanishAbbreviations,
  spanishCourtesy,
  spanishFormalCourtesy,
  spanishInterrogatives,
  spanishQuestionForms,
  spanishQuestionStart,
  spanishUnaccentedQuestionStart,
} from "./es";
import { portugueseAbbreviations, portugueseCourtesy, portugueseQuestionForms, portugueseQuestionStart } from "./pt";
import { removeFillers } from "../fillers";
import { decodePlaceholder, escapeRegExp, guardTokens, placeholderSource, restoreTokens, type Token, tidyWhitespace } from "../guard";
import { type CorrectionContext, correctLine } from "../corrections";
import { detectPolishLanguage, type PolishLanguage } from "./language";

export const polishStyles = ["concise", "normal", "explanatory"] as const;
export type PolishStyle = (typeof polishStyles)[number];

export type { PolishLanguage } from "./language";

function fixSpacing(line: string): string {
  return line
    .replace(/\s+([,.;:!?…)\]}»”])/gu, "$1")
    .replace(/([(\[{¿¡«“])\s+/gu, "$1")
    .replace(/[!?]{2,}/g, (run) => (run.includes("?") && run.includes("!") ? "?!" : run[0]))
    .replace(/\.{4,}/g, "...")
    .replace(/(?<!\.)\.\.(?!\.)/g, ".")
    .replace(/,{2,}/g, ",")
    .replace(/,(?=[.!?])/g, "")
    .replace(/([,;:])(?=[\p{L}\uE000¿¡(“«])/gu, "$1 ")
    .replace(/([.!?…])(?=[\p{L}\uE000¿¡(“«])/gu, "$1 ")
    .replace(/ {2,}/g, " ")
    .trim();
}

const spanishInterrogativePattern = new RegExp(
  String.raw`(^|¿\s*)((?:a|hasta|desde|cada|de|para|con|en)\s+)?(por que|${Object.keys(spanishInterrogatives).filter((key) => key !== "por que").join("|")})(?![\p{L}\p{N}])`,
  "iu",
);


function buildAbbreviationPattern(keys: string[]): RegExp {
  const alternation = [...keys].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|");
  return new RegExp(
    `(?<![\\p{L}\\p{N}_'’@/.\\-\\uE001])(?:${alternation})(?![\\p{L}\\p{N}_'’@/\\-\\uE000])`,
    "giu",
  );
}

const abbreviationPatterns: Record<PolishLanguage, RegExp> = {
  en: buildAbbreviationPattern(Object.keys(englishAbbreviations)),
  es: buildAbbreviationPattern(Object.keys(spanishAbbreviations)),
  pt: buildAbbreviationPattern(Object.keys(portugueseAbbreviations)),
};
const abbreviationMaps: Record<PolishLanguage, Record<string, string>> = {
  en: englishAbbreviations,
  es: spanishAbbreviations,
  pt: portugueseAbbreviations,
};

// A greeting before a question does not stop it being the question's start: "hola, q hora abren?".
// (Written without the i flag: with it, \p{Lu} would match any letter and "hola que" would read as a name.)
const leadingGreeting = /^\s*(?:¡?\s*(?:[Hh]ola|[Bb]uen(?:os|as) (?:d[ií]as|tardes|noches)|[Bb]uenas(?! (?:d[ií]as|tardes|noches))|[Bb]uen d[ií]a|[Oo]i|[Oo]l[aá]|[Bb]om dia|[Bb]oa (?:tarde|noite))(?:\s+\p{Lu}[\p{L}'’-]*)?\s*[,!]*\s*)/u;

function capitalizeFirst(value: string): string {
  return value.charAt(0).toLocaleUpperCase() + value.slice(1);
}

function getQuestionContext({ line, offset }: { line: string; offset: number }): { inQuestion: boolean; atStart: boolean } {
  const prefix = line.slice(0, offset).split(/[.!?…]\s+/).pop() ?? "";
  const rest = line.slice(offset);
  const end = rest.search(/[.!?…](?:\s|$)/);
  const inQuestion = prefix.includes("¿") || (end >= 0 && rest[end] === "?");
  return { inQuestion, atStart: /^\s*¿?\s*(?:(?:y|e|o|pero|mas)\s+)?$/i.test(prefix.replace(leadingGreeting, "")) };
}

function expandAbbreviations({ line, language }: { line: string; language: PolishLanguage }): string {
  const map = abbreviationMaps[language];
  let result = line.replace(abbreviationPatterns[language], (match: string, offset: number, whole: string) => {
    const key = match.toLowerCase();
    const isUpperCase = match === match.toUpperCase() && match !== key;
    if (isUpperCase && match.length < 3 && match !== "U" && match !== "Q") return match;
    if (englishLowercaseOnly.has(key) && match !== key) return match;
    let replacement = map[key];
    if (replacement === undefined) return match;
    if (language === "es" && spanishQuestionForms[key]) {
      const context = getQuestionContext({ line: whole, offset });
      if (context.inQuestion && (context.atStart || key === "dnd")) replacement = spanishQuestionForms[key];
    }
    if (language === "pt" && portugueseQuestionForms[key]) {
      const context = getQuestionContext({ line: whole, offset });
      if (context.inQuestion && context.atStart) replacement = portugueseQuestionForms[key];
    }
    const isTitleCase = /^\p{Lu}/u.test(match) && (match.length === 1 || match.slice(1) === match.slice(1).toLowerCase());
    return isTitleCase ? capitalizeFirst(replacement) : replacement;
  });
  if (language === "en") {
    result = result
      .replace(/\b(?:ur|your) welcome(?=\s*(?:[.!,:)]|$))/gi, (match) => (match[0] === match[0].toUpperCase() ? "You're welcome" : "you're welcome"))
      .replace(/(?<!\S)w\/o(?!\S)/gi, "without")
      .replace(/(?<!\S)w\/(?!\S)/gi, "with");
  } else if (language === "es") {
    // "x" is "por" only between words; next to numbers it is a multiplication sign ("2 x 3").
    result = result.replace(/(?<=[\p{L}\uE001] )x(?= \p{L})/gu, "por");
  }
  return result;
}

/** "que hora abren?" → "qué hora abren?": the question word at the start of each question takes its accent. */
function restoreSpanishInterrogatives(line: string): string {
  return line
    .split(/(?<=[.!?…]["'”’»)\]]*)\s+/)
    .map((sentence) => {
      const greeting = sentence.match(leadingGreeting)?.[0] ?? "";
      const rest = sentence.slice(greeting.length);
      if (!/\?\s*$/.test(rest) && !rest.includes("¿")) return sentence;
      const fixed = rest.replace(spanishInterrogativePattern, (_match, lead: string, preposition: string | undefined, word: string) => {
        const accented = spanishInterrogatives[word.toLowerCase()];
        return lead + (preposition ?? "") + (/^\p{Lu}/u.test(word) ? capitalizeFirst(accented) : accented);
      });
      return greeting + fixed;
    })
    .join(" ");
}

function capitalizeSentences(line: string): string {
  return line.replace(
    /(^|[.!?…]["'”’»)\]]*\s+)([\s¿¡"'“‘«(\-–—•*]*)(\p{L})([\p{L}\p{M}'’\-]*)/gu,
    (_match, lead: string, opening: string, first: string, rest: string) =>
      // "iPhone", "eBay": a capital later in the word means the brand spells it that way.
      lead + opening + (/\p{Lu}/u.test(rest) ? first : first.toLocaleUpperCase()) + rest,
  );
}

function capitalizePronoun(line: string): string {
  return line.replace(/(?<![\p{L}\p{N}\p{M}'’\-_\uE001])i(?=$|[\s'’.,!?;:)])/gu, "I");
}



function isQuestionStart({ clause, language }: { clause: string; language: PolishLanguage }): boolean {
  const text = clause.replace(language === "en" ? englishGreeting : leadingGreeting, "");
  if (language === "es") return spanishQuestionStart.test(text) || spanishUnaccentedQuestionStart.test(text);
  if (language === "pt") return portugueseQuestionStart.test(text);
  return englishQuestionStarts.some((pattern) => pattern.test(text));
}

function chooseSentenceMark({ sentence, language }: { sentence: string; language: PolishLanguage }): string {
  if (sentence.startsWith("¿")) return "?";
  if (sentence.startsWith("¡")) return "!";
  // "The pot is cracked, can you replace it": the last clause asks.
  const lastClause = sentence.split(/,\s+/).pop() ?? sentence;
  if (isQuestionStart({ clause: sentence, language }) || (lastClause !== sentence && isQuestionStart({ clause: lastClause, language }))) return "?";
  return ".";
}

// Runs after the line has its final mark, so "Qué tal" → "Qué tal?" → "¿Qué tal?" happens in one pass.
function addSpanishOpeningMarks(line: string): string {
  return line
    .split(/(?<=[.!?…]["'”’»)\]]*)\s+/)
    .map((sentence) => {
      if (/^[-–—•*]/.test(sentence)) return sentence;
      // "Hola, ¿qué tal?": the question starts after the greeting.
      const greetingMatch = sentence.match(/^([Hh]ola|[Bb]uen(?:os|as) (?:d[ií]as|tardes|noches)|[Bb]uenas(?! (?:d[ií]as|tardes|noches))|[Bb]uen d[ií]a)((?:\s+\p{Lu}[\p{L}'’-]*)?),?\s+(?=\S)/u);
      const greeting = greetingMatch ? `${greetingMatch[1]}${greetingMatch[2]}, ` : "";
      let rest = greetingMatch ? sentence.slice(greetingMatch[0].length) : sentence;
      if (greetingMatch && /^\p{L}/u.test(rest)) rest = rest.charAt(0).toLocaleLowerCase() + rest.slice(1);
      if (sentence.endsWith("?") && !sentence.includes("¿")) {
        // "La maceta vino rajada, ¿me la cambian?": a statement first, the question after the last comma.
        const comma = rest.lastIndexOf(", ");
        const head = comma > 0 ? rest.slice(0, comma) : "";
        if (head && !isQuestionStart({ clause: rest, language: "es" }) && countWords(head) >= 3 && countWords(rest.slice(comma + 2)) >= 2) {
          return `${greeting}${head}, ¿${rest.slice(comma + 2)}`;
        }
        return `${greeting}¿${rest}`;
      }
      if (sentence.endsWith("!") && !sentence.includes("¡")) return `¡${sentence}`;
      return sentence;
    })
    .join(" ");
}

function isSignOffLine(line: string): boolean {
  return signOffPhrase.test(line.replace(/^¡/, "").replace(/[,.!]+$/, "").trim());
}

function startsSignature(line: string): boolean {
  return /^(?:—|--)\s*\S/.test(line) || (line.endsWith(",") && isSignOffLine(line));
}

function countWords(line: string): number {
  return line.split(/\s+/).filter(Boolean).length;
}

function punctuateLineEnd({ line, language, tokens }: { line: string; language: PolishLanguage; tokens: Token[] }): string {
  // List items read better without a full stop, and signature lines are names, not sentences.
  if (/^(?:[-–—•*]|--)\s/.test(line) || line.startsWith("—")) return line;
  const trailingToken = line.match(new RegExp(`(${placeholderSource})$`));
  if (trailingToken) {
    const token = tokens[decodePlaceholder(trailingToken[1].slice(1, -1))];
    // A full stop glued to a link breaks it in many clients.
    if (token.kind === "link" || token.kind === "emoticon" || /[.!?…:;]$/.test(token.value)) return line;
  } else if (!/[\p{L}\p{N}"'”’»)\]]$/u.test(line)) {
    return line;
  }
  const sentence = line.split(/(?<=[.!?…])\s+/).pop() ?? line;
  return line + chooseSentenceMark({ sentence, language });
}

/** The language the rules engine would polish a draft in, when the caller does not say. */
export function detectDraftLanguage(text: string): PolishLanguage {
  return detectPolishLanguage(guardTokens({ text: tidyWhitespace(text), businessName: null }).text);
}

function applyNormalStyle({
  text,
  businessName,
  language: given,
  context = {},
}: {
  text: string;
  businessName: string | null;
  language?: PolishLanguage;
  context?: CorrectionContext;
}): string {
  const tidy = tidyWhitespace(text);
  if (!tidy) return "";
  const guarded = guardTokens({ text: tidy, businessName });
  const language = detectPolishLanguage(guarded.text, given);
  const lines = guarded.text.split("\n").map((raw) => {
    let line = expandAbbreviations({ line: fixSpacing(raw), language });
    line = correctLine({ line, language, context });
    line = capitalizeSentences(fixSpacing(line));
    return language === "en" ? capitalizePronoun(line) : line;
  });

  const signatureStart = findSignatureStart(lines);
  const finished = lines.map((line, index) => {
    if (!line || (signatureStart >= 0 && index > signatureStart) || startsSignature(line)) return line;
    const punctuated = punctuateLineEnd({ line, language, tokens: guarded.tokens });
    return language === "es" ? addSpanishOpeningMarks(restoreSpanishInterrogatives(punctuated)) : punctuated;
  });
  return restoreTokens({ text: finished.join("\n"), tokens: guarded.tokens });
}

const greetingPattern =
  /^¡?\s*(?:hi|hello|hey|hiya|howdy|dear|greetings|good (?:morning|afternoon|evening|day)|hola|buen(?:os|as) (?:d[ií]as|tardes|noches)|buenas|buen d[ií]a|estimad[oa]s?|saludos|oi|ol[aá]|bom dia|boa tarde|boa noite|prezad[oa]s?|e a[ií])(?![\p{L}\p{N}])/iu;
const greetingAudience =
  /^\s*(?:there|all|everyone|team|guys|folks|friends?|a todos|a todas|equipo|customer|cliente|sir|madam|señor|señora|pessoal|gente|equipe|senhor|senhora)(?![\p{L}\p{N}])/iu;
const greetingName = new RegExp(
  String.raw`^\s*((?:(?:${placeholderSource}|(?:Mr|Mrs|Ms|Dr|Dra|Sr|Sra|Srta|Don|Doña)\.?)\s*)?\p{Lu}[\p{L}'’\-]*(?:\s+\p{Lu}[\p{L}'’\-]*)?)`,
  "u",
);

type Greeting = { head: string; name: string | null; rest: string };

function splitGreeting(line: string): Greeting | null {
  const greeting = line.match(greetingPattern);
  if (!greeting) return null;
  let head = greeting[0];
  let rest = line.slice(head.length);
  const audience = rest.match(greetingAudience);
  if (audience) {
    head += audience[0];
    rest = rest.slice(audience[0].length);
  }
  const name = rest.match(greetingName);
  if (name) {
    head += name[0];
    rest = rest.slice(name[0].length);
  }
  rest = rest.replace(/^\s*[,!.:;?]*\s*/, "");
  return { head: head.trim(), name: name ? name[1] : null, rest };
}

const commonSentenceStarters = new Set(
  "your the we our it this that there here thanks thank unfortunately good great sorry please yes as you tu tus su sus el la los las te le ya hemos estamos gracias lamentablemente por tenemos sí nos acabamos".split(
    " ",
  ),
);

function uncapitalizeCommonStart(text: string): string {
  const firstWord = text.match(/^\p{L}+/u)?.[0] ?? "";
  return commonSentenceStarters.has(firstWord.toLowerCase()) ? text.charAt(0).toLocaleLowerCase() + text.slice(1) : text;
}

function isDroppableCourtesy(sentence: string): boolean {
  if (new RegExp(placeholderSource).test(sentence)) return false;
  // A name after the first word ("Thanks so much, Maria!") makes the sentence personal: keep it.
  const laterWords = sentence.split(/\s+/).slice(1);
  if (laterWords.some((word) => /^[¡¿"'(]*\p{Lu}/u.test(word) && !/^I(?:['’]|$|[,.!?])/u.test(word))) return false;
  const core = sentence.replace(/^[¡¿\s]+/, "").replace(/[\s.!?…,]+$/u, "");
  return courtesySentences.some((pattern) => pattern.test(core));
}

const nameLinePattern = new RegExp(
  String.raw`^(?:(?:—|--)\s*)?(?:(?:\p{Lu}[\p{L}'’.\-]*|${placeholderSource}|&|de|del|da|do|y)(?:\s+|$))+$`,
  "u",
);

/** Index of the line where a trailing sign-off block ("Best regards," / "Ana") starts, or -1. */
function findSignatureStart(lines: string[]): number {
  let last = lines.length - 1;
  while (last >= 0 && !lines[last]) last--;
  let start = -1;
  for (let index = last; index >= 0 && index >= last - 5; index--) {
    const line = lines[index];
    if (!line) break;
    if (startsSignature(line) || isSignOffLine(line)) start = index;
    else if (countWords(line) > 5 || !nameLinePattern.test(line)) break;
  }
  return start;
}

function condenseSignOff(lines: string[]): string[] {
  const start = findSignatureStart(lines);
  if (start >= 0) {
    const signature = lines.slice(start).filter(Boolean);
    const names = isSignOffLine(signature[0]) ? signature.slice(1) : signature;
    if (names.length === 0) return lines.slice(0, start);
    return [...lines.slice(0, start), `— ${names[0].replace(/^(?:—|--)\s*/, "")}`, ...names.slice(1)];
  }
  // "Best regards, Ana" on one line: keep the name as the signature.
  let last = lines.length - 1;
  while (last >= 0 && !lines[last]) last--;
  const inline = lines[last]?.match(/^(.+?),\s+(\p{Lu}[\p{L}'’\-]*(?:\s+\p{Lu}[\p{L}'’\-]*)?)[.!]?$/u);
  if (inline && isSignOffLine(inline[1]) && !/^(?:thanks|thank you|gracias)/i.test(inline[1])) {
    return [...lines.slice(0, last), `— ${inline[2]}`];
  }
  return lines;
}

function removeWordiness({ text, businessName }: { text: string; businessName: string | null; language?: PolishLanguage }): string {
  const guarded = guardTokens({ text, businessName });
  let lines = guarded.text.split("\n");

  const first = lines.findIndex(Boolean);
  const greeting = first >= 0 ? splitGreeting(lines[first]) : null;
  if (greeting && !greeting.name) lines[first] = greeting.rest;
  if (greeting?.name) {
    // The customer's name stays; a salutation alone on its line joins the first sentence.
    const next = greeting.rest ? -1 : lines.findIndex((line, index) => index > first && Boolean(line));
    const sentence = greeting.rest || (next >= 0 ? lines[next] : "");
    lines[first] = sentence ? `${greeting.name}, ${uncapitalizeCommonStart(sentence)}` : `${greeting.name},`;
    if (next >= 0) lines.splice(first + 1, next - first);
  }
  lines = condenseSignOff(lines);

  lines = lines.map((line) =>
    line
      .split(/(?<=[.!?…]["'”’»)\]]*)\s+/)
      .filter((sentence) => !isDroppableCourtesy(sentence))
      .map(removeFillers)
      .filter((sentence) => new RegExp(`[\\p{L}]|${placeholderSource}`, "u").test(sentence))
      .join(" "),
  );
  return restoreTokens({ text: tidyWhitespace(lines.join("\n")), tokens: guarded.tokens });
}

function applyConciseStyle({ text, businessName, language }: { text: string; businessName: string | null; language?: PolishLanguage }): string {
  let current = text;
  // Dropping one greeting can reveal another ("Hola, buenos días,"): repeat until nothing changes.
  for (let round = 0; round < 6; round++) {
    const next = applyNormalStyle({ text: removeWordiness({ text: current, businessName }), businessName, language });
    if (!next || next === current) break;
    current = next;
  }
  return current;
}

// A reply that already says "usted" should not switch to "tú" in the closing line.
function chooseCourtesyPhrases({ text, language }: { text: string; language: PolishLanguage }): CourtesyPhrases {
  if (language === "en") return englishCourtesy;
  if (language === "pt") return portugueseCourtesy;
  const lower = text.toLowerCase();
  const formal = /(?<![\p{L}])(?:usted|ustedes|ud|uds|sr|sra|srta|estimad[oa]s?)(?![\p{L}])|(?<![\p{L}])(?:puede|tiene|necesita|desea|quiere)(?![\p{L}])/u.test(lower);
  const informal = /(?<![\p{L}])(?:tú|te|ti|tu|tus|puedes|tienes|necesitas|deseas|quieres)(?![\p{L}])/u.test(lower);
  return formal && !informal ? spanishFormalCourtesy : spanishCourtesy;
}

function addOpening({ text, phrases, businessName }: { text: string; phrases: CourtesyPhrases; businessName: string | null }): string {
  const lines = text.split("\n");
  const firstSentences = lines[0].split(/(?<=[.!?…])\s+/).slice(0, 2).join(" ");
  if (openingThanksPattern.test(firstSentences)) return text;
  const greeting = splitGreeting(lines[0]);
  if (greeting) {
    // "¡Hola Ana!" becomes "Hola Ana, gracias por...": the exclamation would no longer be closed.
    const head = greeting.head.replace(/^¡\s*/, "");
    lines[0] = [`${head}, ${phrases.thanks(businessName)}`, greeting.rest].filter(Boolean).join(" ");
    return lines.join("\n");
  }
  return `${phrases.greeting}, ${phrases.thanks(businessName)}\n\n${text}`;
}

function addClosing({
  text,
  phrases,
  businessName,
  mentionsBusiness,
}: {
  text: string;
  phrases: CourtesyPhrases;
  businessName: string | null;
  mentionsBusiness: (line: string) => boolean;
}): string {
  const lines = text.split("\n");
  let start = findSignatureStart(lines);
  if (start < 0) {
    // "... at www.shop.com. Saludos." : the sign-off moves below the added help line, where it belongs.
    const last = lines.length - 1;
    const sentences = lines[last].split(/(?<=[.!?…])\s+/);
    if (sentences.length > 1 && isSignOffLine(sentences[sentences.length - 1])) {
      const signOff = sentences.pop() ?? "";
      // With a business name to sign below it, "Saludos." reads as "Saludos,".
      lines.splice(last, 1, sentences.join(" "), "", businessName ? signOff.replace(/[.!…]+$/, ",") : signOff);
      start = last + 2;
    }
  }
  const body = start >= 0 ? lines.slice(0, start) : [...lines];
  const signature = start >= 0 ? lines.slice(start) : [];
  while (body.length > 0 && !body[body.length - 1]) body.pop();
  if (!helpOfferPattern.test(body.join("\n"))) body.push("", phrases.help);
  if (signature.length === 0) {
    if (businessName) body.push(phrases.signature(businessName));
    return body.join("\n");
  }
  if (businessName && !signature.some(mentionsBusiness)) {
    signature.push(businessName);
  }
  const separator = lines[start - 1] === "" ? [""] : [];
  return [...body, ...separator, ...signature].join("\n");
}

function applyExplanatoryStyle({ text, businessName, language: given }: { text: string; businessName: string | null; language?: PolishLanguage }): string {
  // Works on guarded text: a business name in any case then reads as a signature line.
  const guarded = guardTokens({ text, businessName });
  const language = detectPolishLanguage(guarded.text, given);
  const phrases = chooseCourtesyPhrases({ text, language });
  const mentionsBusiness = (line: string) =>
    [...line.matchAll(new RegExp(placeholderSource, "g"))].some(
      ([placeholder]) => guarded.tokens[decodePlaceholder(placeholder.slice(1, -1))].kind === "name",
    );
  const opened = addOpening({ text: guarded.text, phrases, businessName });
  const closed = addClosing({ text: opened, phrases, businessName, mentionsBusiness });
  const restored = restoreTokens({ text: closed, tokens: guarded.tokens });
  return applyNormalStyle({ text: restored, businessName, language });
}

/**
 * The built-in, deterministic polishing engine. Polishing its own output again with the same style
 * returns it unchanged.
 */
export function polishWithRules({
  text,
  style,
  businessName,
  language,
  context,
}: {
  text: string;
  style: PolishStyle;
  businessName?: string | null;
  /** The draft's language; detected from the text when absent. */
  language?: PolishLanguage;
  /** Names, the business's own words and the dictionary: the fixes apply under every style. */
  context?: CorrectionContext;
}): string {
  const name = businessName?.trim() || null;
  const normal = applyNormalStyle({ text, businessName: name, language, context });
  if (!normal || style === "normal") return normal;
  if (style === "concise") return applyConciseStyle({ text: normal, businessName: name, language });
  return applyExplanatoryStyle({ text: normal, businessName: name, language });
}
