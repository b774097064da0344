import { createHash } from "node:crypto";
import type { Executor } from "@/db";
import type { ServiceContext } from "@/lib/auth/context";
import { findConversation } from "@/lib/conversations/store";
import { findLastCustomerText } from "@/lib/messages/store";
import { NotFoundError } from "@/lib/platform/errors";
import { llmConfig } from "@/lib/platform/llm";
import type { Language } from "@/lib/platform/language/language";
import { detectMessageLanguage } from "@/lib/platform/language/detect";
import type { SuggestionsOutput } from "./schemas";
import {
  deleteDescriptionPassages,
  deleteDocumentPassages,
  deletePassages,
  findDescriptionIndexed,
  findDismissedHashes,
  findPassagesCutBefore,
  findPassageText,
  findProfileLanguage,
  findUnindexedDocuments,
  insertDismissal,
  insertPassageRows,
  lockKnowledgeIndexing,
  searchPassages,
} from "./store";

/**
 * A passage is at most about this long: short enough to insert into a chat reply whole, long
 * enough to answer. Text is cut at paragraph ends first, then at sentence ends and line breaks,
 * and only a sentence longer than this on its own is cut, at a space (never inside a word).
 */
export const PASSAGE_MAX = 300;
/** How passages are cut now; passages stored by an earlier cut are cut again on first use. */
const PASSAGE_CUT = 2;
/** Suggestions returned for one message. */
const SUGGESTIONS_MAX = 3;
/** Candidates ranked before the language preference and the agent's "not helpful" are applied. */
const CANDIDATES_MAX = 24;

/** Accent-free text for the search vectors, so "envios" finds "envíos" in any language. */
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A sentence, or a piece of one that was too long, and whether a line break followed it. */
type Unit = { text: string; lineBreak: boolean };

/** Cuts a piece longer than the limit at spaces, each part at most PASSAGE_MAX. */
function cutAtSpaces(text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > PASSAGE_MAX) {
    const cut = rest.lastIndexOf(" ", PASSAGE_MAX);
    const at = cut > 0 ? cut : PASSAGE_MAX;
    parts.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** Packs lines into pieces of at most PASSAGE_MAX; a single line over it is cut at spaces. */
function cutAtLines(sentence: string): string[] {
  const pieces: string[] = [];
  let current = "";
  for (const line of sentence.split("\n").flatMap((line) => cutAtSpaces(line.trim())).filter(Boolean)) {
    if (current && current.length + 1 + line.length > PASSAGE_MAX) {
      pieces.push(current);
      current = "";
    }
    current = current ? `${current}\n${line}` : line;
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * A paragraph's sentences. Line breaks inside a sentence are the wrapping of a PDF page and read
 * as spaces; a "sentence" too long on its own (a price list with no full stops) is cut at its
 * line ends, then at spaces. A full stop inside a number ("9.90") does not end a sentence.
 */
function unitsOf(paragraph: string): Unit[] {
  const text = paragraph.replace(/[^\S\n]+/g, " ").replace(/ *\n */g, "\n").trim();
  const units: Unit[] = [];
  for (const match of text.matchAll(/[\s\S]+?(?:[.!?…]+(?=\s|$)|$)/gu)) {
    const sentence = match[0].trim();
    if (!sentence) continue;
    const lineBreak = text[match.index + match[0].length] === "\n";
    const flat = sentence.replace(/\s+/g, " ");
    const pieces = flat.length <= PASSAGE_MAX ? [flat] : cutAtLines(sentence);
    pieces.forEach((piece, index) => units.push({ text: piece, lineBreak: index < pieces.length - 1 || lineBreak }));
  }
  return units;
}

function joinUnits(units: Unit[]): string {
  return units.map((unit, index) => unit.text + (index < units.length - 1 ? (unit.lineBreak ? "\n" : " ") : "")).join("");
}

/**
 * Passages of a text, each at most PASSAGE_MAX characters: short paragraphs are joined, a
 * paragraph that does not fit is cut between sentences (or lines), never mid-word.
 */
export function splitPassages(text: string): string[] {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[^\S\n]*\n|\n(?=[^\S\n]*(?:[-•*]|\d+[.)])\s)/)
    .map(unitsOf)
    .filter((units) => units.some((unit) => /[\p{L}\p{N}]/u.test(unit.text)));
  const passages: string[] = [];
  let current = "";
  let currentLanguage: Language | null = null;
  const flush = () => {
    if (current) passages.push(current);
    current = "";
    currentLanguage = null;
  };
  for (const units of paragraphs) {
    const whole = joinUnits(units);
    const language = detectMessageLanguage(whole);
    // Paragraphs in different languages are never joined: a passage is offered in one language.
    const sameLanguage = !language || !currentLanguage || language === currentLanguage;
    if (current && sameLanguage && current.length + 1 + whole.length <= PASSAGE_MAX) {
      current = `${current}\n${whole}`;
      currentLanguage ??= language;
      continue;
    }
    flush();
    if (whole.length <= PASSAGE_MAX) {
      current = whole;
      currentLanguage = language;
      continue;
    }
    let group: Unit[] = [];
    for (const unit of units) {
      if (group.length && joinUnits([...group, unit]).length > PASSAGE_MAX) {
        passages.push(joinUnits(group));
        group = [];
      }
      group.push(unit);
    }
    if (group.length) {
      current = joinUnits(group);
      currentLanguage = detectMessageLanguage(current);
    }
  }
  flush();
  return passages;
}

type PassageSource = { sourceType: "description" } | { sourceType: "document"; documentId: string; pages: string[] };

async function insertPassages(db: Executor, accountId: string, source: PassageSource, texts: { text: string; page: number | null }[]) {
  if (texts.length === 0) return;
  await insertPassageRows(db, {
    accountId,
    sourceType: source.sourceType,
    documentId: source.sourceType === "document" ? source.documentId : null,
    cut: PASSAGE_CUT,
    passages: texts.map(({ text, page }) => ({ text, searchable: plain(text), page })),
  });
}

/** Replaces the passages of the profile description (call after the description changes). */
export async function indexDescription(db: Executor, { accountId, description }: { accountId: string; description: string }) {
  await deleteDescriptionPassages(db, { accountId });
  await insertPassages(db, accountId, { sourceType: "description" }, splitPassages(description).map((text) => ({ text, page: null })));
}

/**
 * Indexes a document's text. `pages` is the text of each page when known (a fresh upload), so a
 * suggestion can cite its page; documents stored before indexing existed are split as one text.
 */
export async function indexDocument(db: Executor, { accountId, documentId, pages }: { accountId: string; documentId: string; pages: string[] }) {
  await deleteDocumentPassages(db, { accountId, documentId });
  const texts = pages.flatMap((pageText, index) => splitPassages(pageText).map((text) => ({ text, page: pages.length > 1 ? index + 1 : null })));
  await insertPassages(db, accountId, { sourceType: "document", documentId, pages }, texts);
}

/**
 * Cuts again the passages an earlier version stored (about a paragraph, up to 700 characters,
 * neighbours joined whatever their language). The description is indexed again from the profile;
 * a document's passages are re-cut page by page from their own text, whose line breaks were
 * paragraph ends, so their pages are kept.
 */
async function recutOldPassages(db: Executor, accountId: string) {
  const old = await findPassagesCutBefore(db, { accountId, cut: PASSAGE_CUT });
  if (old.length === 0) return;
  await deletePassages(db, { accountId, ids: old.map((row) => row.id) });
  const groups = new Map<string, { documentId: string; page: number | null; texts: string[] }>();
  for (const row of old) {
    if (row.sourceType !== "document" || !row.documentId) continue;
    const key = `${row.documentId}:${row.page ?? ""}`;
    const group = groups.get(key) ?? { documentId: row.documentId, page: row.page, texts: [] };
    group.texts.push(row.text.replace(/\n/g, "\n\n"));
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const texts = splitPassages(group.texts.join("\n\n")).map((text) => ({ text, page: group.page }));
    await insertPassages(db, accountId, { sourceType: "document", documentId: group.documentId, pages: [] }, texts);
  }
}

/** Indexes what an account stored before passages existed: a description or documents without passages. */
/**
 * Indexes what is not indexed yet, once: concurrent readers of one account (suggestions, drafts,
 * the out-of-hours assistant) wait for each other here instead of cutting the same passages twice.
 */
async function indexExistingKnowledge(executor: Executor, accountId: string) {
  await executor.transaction(async (db) => {
    await lockKnowledgeIndexing(db, { accountId });
    await indexMissingKnowledge(db, accountId);
  });
}

async function indexMissingKnowledge(db: Executor, accountId: string) {
  await recutOldPassages(db, accountId);
  const profile = await findDescriptionIndexed(db, { accountId });
  if (profile?.description.trim() && !profile.indexed) await indexDescription(db, { accountId, description: profile.description });
  const unindexed = await findUnindexedDocuments(db, { accountId });
  for (const doc of unindexed) await indexDocument(db, { accountId, documentId: doc.id, pages: [doc.text] });
}

export type RetrievedPassage = {
  id: string;
  text: string;
  source: SuggestionsOutput["data"][number]["source"];
  score: number;
};

/** The stable key of a passage's text, for the agent's "not helpful". */
function passageHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The customer's last text message in a conversation, or null. */
export async function lastCustomerText(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const last = await findLastCustomerText(db, { accountId, conversationId });
  return last?.text?.trim() ? { ...last, text: last.text } : null;
}

/** The language a customer's text is answered in: stored, else detected, else the business's. */
export async function customerLanguage(db: Executor, { accountId, text, stored }: { accountId: string; text: string; stored: Language | null }): Promise<Language> {
  if (stored) return stored;
  const detected = detectMessageLanguage(text);
  if (detected) return detected;
  return (await findProfileLanguage(db, { accountId })) ?? "en";
}

/**
 * Passages of the business's own knowledge that answer `text`, best first, ranked by PostgreSQL
 * full-text search with the stemmer of `language`. Any word of the text may match (OR), and the
 * rank rewards passages matching more of them, closer together. When a matching passage is
 * written in `language`, passages written in another language are left out (a passage with no
 * clear language stays), so a Portuguese customer is never offered a Spanish or English block.
 */
export async function retrievePassages(
  db: Executor,
  { accountId, text, language, limit = SUGGESTIONS_MAX, excludeHashes = new Set<string>() }: { accountId: string; text: string; language: Language; limit?: number; excludeHashes?: Set<string> },
): Promise<RetrievedPassage[]> {
  await indexExistingKnowledge(db, accountId);
  const rows = await searchPassages(db, { accountId, plainText: plain(text), language, limit: CANDIDATES_MAX });
  const candidates = rows.filter((row) => !excludeHashes.has(passageHash(row.text))).map((row) => ({ row, language: detectMessageLanguage(row.text) }));
  const inLanguage = candidates.some((candidate) => candidate.language === language);
  return candidates
    .filter((candidate) => !inLanguage || candidate.language === language || candidate.language === null)
    .slice(0, limit)
    .map(({ row }) => ({
      id: row.id,
      text: row.text,
      source:
        row.sourceType === "document" && row.documentId
          ? { type: "document" as const, document_id: row.documentId, ...(row.filename ? { filename: row.filename } : {}), ...(row.page !== null ? { page: row.page } : {}) }
          : { type: "description" as const },
      score: Math.round(Number(row.score) * 10_000) / 10_000,
    }));
}

/**
 * Suggested answers to the customer's last message (see retrievePassages), without the passages
 * an agent marked "not helpful" in this conversation. Nothing is offered while the 24-hour
 * window is closed: only a template may be sent then, so a passage could not be.
 */
export async function suggestAnswers({ ctx, conversationId }: { ctx: ServiceContext; conversationId: string }): Promise<SuggestionsOutput> {
  const db = ctx.db;
  const conversation = await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  const last = await lastCustomerText(db, { accountId: ctx.accountId, conversationId });
  if (!last) return { data: [] };
  const language = await customerLanguage(db, { accountId: ctx.accountId, text: last.text, stored: last.language });
  const windowOpen = conversation.serviceWindowExpiresAt !== null && conversation.serviceWindowExpiresAt.getTime() > Date.now();
  if (!windowOpen) return { data: [], language, window_open: false };
  const dismissed = await findDismissedHashes(db, { accountId: ctx.accountId, conversationId });
  const passages = await retrievePassages(db, { accountId: ctx.accountId, text: last.text, language, excludeHashes: new Set(dismissed) });
  return { data: passages, language, window_open: true, draft: llmConfig() !== null };
}

/** An agent's "not helpful": the passage is no longer suggested in this conversation. */
export async function dismissSuggestion({ ctx, conversationId, suggestionId }: { ctx: ServiceContext; conversationId: string; suggestionId: string }) {
  const db = ctx.db;
  await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  const passage = await findPassageText(db, { accountId: ctx.accountId, id: suggestionId });
  if (!passage) throw new NotFoundError("Suggestion");
  await insertDismissal(db, { accountId: ctx.accountId, conversationId, textHash: passageHash(passage.text) });
}
