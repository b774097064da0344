import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { type Executor, getDb } from "@/db";
import { businessProfiles, documents, knowledgePassages, messages } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { findConversation } from "@/lib/conversations/store";
import { newId } from "@/lib/platform/ids";
import { type Language, textSearchConfig } from "@/lib/platform/language/language";
import { detectMessageLanguage } from "@/lib/platform/language/detect";
import type { SuggestionsOutput } from "./schemas";

/** A passage is about a paragraph: long enough to answer, short enough to insert into a reply. */
const PASSAGE_TARGET = 420;
const PASSAGE_MAX = 700;
/** Suggestions returned for one message. */
const SUGGESTIONS_MAX = 3;

/** Accent-free text for the search vectors, so "envios" finds "envíos" in any language. */
function plain(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

function splitLong(paragraph: string): string[] {
  if (paragraph.length <= PASSAGE_MAX) return [paragraph];
  const sentences = paragraph.match(/[^.!?…]+(?:[.!?…]+|$)\s*/gu) ?? [paragraph];
  const parts: string[] = [];
  let current = "";
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > PASSAGE_MAX) {
      parts.push(current.trim());
      current = "";
    }
    // A single sentence over the limit is cut at a word boundary.
    let rest = sentence;
    while (rest.length > PASSAGE_MAX) {
      const cut = rest.lastIndexOf(" ", PASSAGE_MAX);
      parts.push(rest.slice(0, cut > 0 ? cut : PASSAGE_MAX).trim());
      rest = rest.slice(cut > 0 ? cut : PASSAGE_MAX);
    }
    current += rest;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** Paragraphs of a text, short neighbours joined, long ones cut at sentence ends. */
export function splitPassages(text: string): string[] {
  const paragraphs = text
    .split(/\n\s*\n|\n(?=\s*(?:[-•*]|\d+[.)])\s)/)
    .map((paragraph) => paragraph.replace(/\s+/g, " ").trim())
    .filter((paragraph) => /[\p{L}\p{N}]/u.test(paragraph));
  const passages: string[] = [];
  let current = "";
  for (const paragraph of paragraphs.flatMap(splitLong)) {
    if (current && current.length + paragraph.length + 1 > PASSAGE_TARGET) {
      passages.push(current);
      current = "";
    }
    current = current ? `${current}\n${paragraph}` : paragraph;
  }
  if (current) passages.push(current);
  return passages;
}

type PassageSource = { sourceType: "description" } | { sourceType: "document"; documentId: string; pages: string[] };

async function insertPassages(db: Executor, accountId: string, source: PassageSource, texts: { text: string; page: number | null }[]) {
  if (texts.length === 0) return;
  const now = new Date();
  await db.insert(knowledgePassages).values(
    texts.map(({ text, page }, position) => {
      const searchable = plain(text);
      return {
        id: newId("passage", now),
        accountId,
        sourceType: source.sourceType,
        documentId: source.sourceType === "document" ? source.documentId : null,
        page,
        position,
        text,
        searchEn: sql`to_tsvector('english', ${searchable})`,
        searchEs: sql`to_tsvector('spanish', ${searchable})`,
        searchPt: sql`to_tsvector('portuguese', ${searchable})`,
      };
    }),
  );
}

/** Replaces the passages of the profile description (call after the description changes). */
export async function indexDescription(db: Executor, { accountId, description }: { accountId: string; description: string }) {
  await db.delete(knowledgePassages).where(and(eq(knowledgePassages.accountId, accountId), eq(knowledgePassages.sourceType, "description")));
  await insertPassages(db, accountId, { sourceType: "description" }, splitPassages(description).map((text) => ({ text, page: null })));
}

/**
 * Indexes a document's text. `pages` is the text of each page when known (a fresh upload), so a
 * suggestion can cite its page; documents stored before indexing existed are split as one text.
 */
export async function indexDocument(db: Executor, { accountId, documentId, pages }: { accountId: string; documentId: string; pages: string[] }) {
  await db.delete(knowledgePassages).where(and(eq(knowledgePassages.accountId, accountId), eq(knowledgePassages.documentId, documentId)));
  const texts = pages.flatMap((pageText, index) => splitPassages(pageText).map((text) => ({ text, page: pages.length > 1 ? index + 1 : null })));
  await insertPassages(db, accountId, { sourceType: "document", documentId, pages }, texts);
}

/** Indexes what an account stored before passages existed: a description or documents without passages. */
async function indexExistingKnowledge(db: Executor, accountId: string) {
  const hasPassages = (condition: ReturnType<typeof sql>) =>
    sql`exists (select 1 from ${knowledgePassages} where ${knowledgePassages.accountId} = ${accountId} and ${condition})`;
  const [profile] = await db
    .select({ description: businessProfiles.description, indexed: sql<boolean>`${hasPassages(sql`${knowledgePassages.sourceType} = 'description'`)}` })
    .from(businessProfiles)
    .where(eq(businessProfiles.accountId, accountId));
  if (profile?.description.trim() && !profile.indexed) await indexDescription(db, { accountId, description: profile.description });
  const unindexed = await db
    .select({ id: documents.id, text: documents.text })
    .from(documents)
    .where(and(eq(documents.accountId, accountId), sql`not ${hasPassages(sql`${knowledgePassages.documentId} = ${documents.id}`)}`));
  for (const doc of unindexed) await indexDocument(db, { accountId, documentId: doc.id, pages: [doc.text] });
}

/**
 * Passages of the business's own knowledge that answer the customer's last message, best first,
 * ranked by PostgreSQL full-text search with the stemmer of the message's language. Any word of
 * the message may match (OR), and the rank rewards passages matching more of them, closer together.
 */
export async function suggestAnswers({ ctx, conversationId }: { ctx: ServiceContext; conversationId: string }): Promise<SuggestionsOutput> {
  const db = getDb();
  await findConversation(db, { accountId: ctx.accountId, id: conversationId });
  const [last] = await db
    .select({ text: messages.text, language: messages.language })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, ctx.accountId),
        eq(messages.conversationId, conversationId),
        eq(messages.direction, "inbound"),
        eq(messages.type, "text"),
        isNull(messages.deletedAt),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  if (!last?.text?.trim()) return { data: [] };

  await indexExistingKnowledge(db, ctx.accountId);
  const [profile] = await db.select({ language: businessProfiles.language }).from(businessProfiles).where(eq(businessProfiles.accountId, ctx.accountId));
  const language: Language = last.language ?? detectMessageLanguage(last.text) ?? profile?.language ?? "en";
  const config = textSearchConfig[language];
  const column = { en: knowledgePassages.searchEn, es: knowledgePassages.searchEs, pt: knowledgePassages.searchPt }[language];
  // plainto_tsquery drops stop words and stems; its AND is turned into OR so a passage need not hold every word.
  const query = sql`replace(plainto_tsquery(${config}::regconfig, ${plain(last.text)})::text, '&', '|')::tsquery`;
  const rank = sql<number>`ts_rank_cd(${column}, ${query}, 1)`;
  const rows = await db
    .select({ text: knowledgePassages.text, sourceType: knowledgePassages.sourceType, documentId: knowledgePassages.documentId, filename: documents.filename, page: knowledgePassages.page, score: rank })
    .from(knowledgePassages)
    .leftJoin(documents, and(eq(documents.id, knowledgePassages.documentId), eq(documents.accountId, ctx.accountId)))
    .where(and(eq(knowledgePassages.accountId, ctx.accountId), sql`numnode(${query}) > 0`, sql`${column} @@ ${query}`))
    .orderBy(desc(rank), knowledgePassages.sourceType, knowledgePassages.position)
    .limit(SUGGESTIONS_MAX);
  return {
    data: rows.map((row) => ({
      text: row.text,
      source:
        row.sourceType === "document" && row.documentId
          ? { type: "document" as const, document_id: row.documentId, ...(row.filename ? { filename: row.filename } : {}), ...(row.page !== null ? { page: row.page } : {}) }
          : { type: "description" as const },
      score: Math.round(Number(row.score) * 10_000) / 10_000,
    })),
    language,
  };
}
