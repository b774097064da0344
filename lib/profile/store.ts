import { and, asc, count, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, businessProfiles, documents, knowledgePassages, suggestionDismissals } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { type Language, textSearchConfig } from "@/lib/platform/language/language";

// The reads and writes of the business profile.

export async function findBusinessProfile(db: Executor, accountId: string) {
  const [row] = await db.select().from(businessProfiles).where(eq(businessProfiles.accountId, accountId)).limit(1);
  return row;
}

/** The account's name and when it was created (what a profile never saved reads as). */
export async function findAccountName(db: Executor, accountId: string) {
  const [account] = await db.select({ name: accounts.name, createdAt: accounts.createdAt }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return account;
}

/** The profile's description, its row locked until the transaction ends. */
export async function lockBusinessProfile(tx: Executor, accountId: string) {
  const [previous] = await tx.select({ description: businessProfiles.description }).from(businessProfiles).where(eq(businessProfiles.accountId, accountId)).for("update");
  return previous;
}

export async function upsertBusinessProfile(db: Executor, accountId: string, values: Omit<typeof businessProfiles.$inferInsert, "accountId">) {
  const [saved] = await db
    .insert(businessProfiles)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: businessProfiles.accountId, set: values })
    .returning();
  return saved;
}

// Documents: the account's uploaded PDFs and their extracted text.

const documentListColumns = {
  id: documents.id,
  filename: documents.filename,
  size: documents.size,
  pages: documents.pages,
  createdAt: documents.createdAt,
  textLength: sql<number>`length(${documents.text})::int`,
};

/** The account's documents as the list shows them (no text, no bytes), for a keyset page. */
export function selectDocumentList(db: Executor) {
  return db.select(documentListColumns).from(documents).$dynamic();
}

/** One of the account's documents with its extracted text; undefined when missing. */
export async function findDocumentWithText(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await db
    .select({ ...documentListColumns, text: documents.text })
    .from(documents)
    .where(and(eq(documents.accountId, accountId), eq(documents.id, id)))
    .limit(1);
  return row;
}

/** One of the account's documents' name and bytes; undefined when missing. */
export async function findDocumentFile(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await db
    .select({ filename: documents.filename, bytes: documents.bytes })
    .from(documents)
    .where(and(eq(documents.accountId, accountId), eq(documents.id, id)))
    .limit(1);
  return row;
}

export async function countDocuments(db: Executor, { accountId }: { accountId: string }) {
  const [row] = await db.select({ n: count() }).from(documents).where(eq(documents.accountId, accountId));
  return Number(row.n);
}

/** Locks the account's row until the transaction ends (serialises one account's uploads). */
export async function lockAccountRow(tx: Executor, { accountId }: { accountId: string }) {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
}

export async function insertDocument(tx: Executor, values: typeof documents.$inferInsert) {
  const [row] = await tx
    .insert(documents)
    .values(values)
    .returning({ id: documents.id, filename: documents.filename, size: documents.size, pages: documents.pages, createdAt: documents.createdAt });
  return row;
}

/** Deletes one of the account's documents: whether it existed. */
export async function deleteDocumentRow(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const removed = await db
    .delete(documents)
    .where(and(eq(documents.accountId, accountId), eq(documents.id, id)))
    .returning({ id: documents.id });
  return removed.length > 0;
}

/** The account's documents oldest first, at most `limit`, each with a prefix of `budget` characters of its text and its whole length. */
export async function findDocumentTextPrefixes(db: Executor, { accountId, budget, limit }: { accountId: string; budget: number; limit: number }) {
  return db
    .select({ filename: documents.filename, text: sql<string>`left(${documents.text}, ${budget})`, length: sql<number>`length(${documents.text})::int` })
    .from(documents)
    .where(eq(documents.accountId, accountId))
    .orderBy(asc(documents.createdAt), asc(documents.id))
    .limit(limit);
}

// Knowledge: the passages the profile description and documents are cut into, searched per language.

/** A passage to store: its text, the same text made plain for the search vectors, and its page. */
type NewPassage = { text: string; searchable: string; page: number | null };

/** Stores passages of one source in order, with their search vectors in the three languages. */
export async function insertPassageRows(
  db: Executor,
  { accountId, sourceType, documentId, cut, passages }: { accountId: string; sourceType: "description" | "document"; documentId: string | null; cut: number; passages: NewPassage[] },
) {
  const now = new Date();
  await db.insert(knowledgePassages).values(
    passages.map(({ text, searchable, page }, position) => ({
      id: newId("passage", now),
      accountId,
      sourceType,
      documentId,
      page,
      position,
      text,
      cut,
      searchEn: sql`to_tsvector('english', ${searchable})`,
      searchEs: sql`to_tsvector('spanish', ${searchable})`,
      searchPt: sql`to_tsvector('portuguese', ${searchable})`,
    })),
  );
}

export async function deleteDescriptionPassages(db: Executor, { accountId }: { accountId: string }) {
  await db.delete(knowledgePassages).where(and(eq(knowledgePassages.accountId, accountId), eq(knowledgePassages.sourceType, "description")));
}

export async function deleteDocumentPassages(db: Executor, { accountId, documentId }: { accountId: string; documentId: string }) {
  await db.delete(knowledgePassages).where(and(eq(knowledgePassages.accountId, accountId), eq(knowledgePassages.documentId, documentId)));
}

/** The account's passages cut by a version older than `cut`, by document, page and position. */
export async function findPassagesCutBefore(db: Executor, { accountId, cut }: { accountId: string; cut: number }) {
  return db
    .select({ id: knowledgePassages.id, sourceType: knowledgePassages.sourceType, documentId: knowledgePassages.documentId, page: knowledgePassages.page, text: knowledgePassages.text })
    .from(knowledgePassages)
    .where(and(eq(knowledgePassages.accountId, accountId), lt(knowledgePassages.cut, cut)))
    .orderBy(knowledgePassages.documentId, knowledgePassages.page, knowledgePassages.position);
}

export async function deletePassages(db: Executor, { accountId, ids }: { accountId: string; ids: string[] }) {
  await db.delete(knowledgePassages).where(and(eq(knowledgePassages.accountId, accountId), inArray(knowledgePassages.id, ids)));
}

/** Waits until no one else indexes the account's knowledge in a transaction, then holds it until this one ends. */
export async function lockKnowledgeIndexing(tx: Executor, { accountId }: { accountId: string }) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`knowledge:${accountId}`}))`);
}

const hasPassages = (accountId: string, condition: SQL) =>
  sql`exists (select 1 from ${knowledgePassages} where ${knowledgePassages.accountId} = ${accountId} and ${condition})`;

/** The profile description and whether it has passages; undefined without a profile. */
export async function findDescriptionIndexed(db: Executor, { accountId }: { accountId: string }) {
  const [profile] = await db
    .select({ description: businessProfiles.description, indexed: sql<boolean>`${hasPassages(accountId, sql`${knowledgePassages.sourceType} = 'description'`)}` })
    .from(businessProfiles)
    .where(eq(businessProfiles.accountId, accountId));
  return profile;
}

/** The account's documents without passages, with their text. */
export async function findUnindexedDocuments(db: Executor, { accountId }: { accountId: string }) {
  return db
    .select({ id: documents.id, text: documents.text })
    .from(documents)
    .where(and(eq(documents.accountId, accountId), sql`not ${hasPassages(accountId, sql`${knowledgePassages.documentId} = ${documents.id}`)}`));
}

/** The business's language, or undefined when the profile does not say. */
export async function findProfileLanguage(db: Executor, { accountId }: { accountId: string }) {
  const [profile] = await db.select({ language: businessProfiles.language }).from(businessProfiles).where(eq(businessProfiles.accountId, accountId));
  return profile?.language ?? undefined;
}

/**
 * Up to `limit` of the account's passages matching any word of `plainText` in `language`'s
 * stemmer, best first (ts_rank_cd rewards more words, closer together), with their document's
 * name. plainto_tsquery drops stop words and stems; its AND is turned into OR so a passage need
 * not hold every word.
 */
export async function searchPassages(db: Executor, { accountId, plainText, language, limit }: { accountId: string; plainText: string; language: Language; limit: number }) {
  const config = textSearchConfig[language];
  const column = { en: knowledgePassages.searchEn, es: knowledgePassages.searchEs, pt: knowledgePassages.searchPt }[language];
  const query = sql`replace(plainto_tsquery(${config}::regconfig, ${plainText})::text, '&', '|')::tsquery`;
  const rank = sql<number>`ts_rank_cd(${column}, ${query}, 1)`;
  return db
    .select({ id: knowledgePassages.id, text: knowledgePassages.text, sourceType: knowledgePassages.sourceType, documentId: knowledgePassages.documentId, filename: documents.filename, page: knowledgePassages.page, score: rank })
    .from(knowledgePassages)
    .leftJoin(documents, and(eq(documents.id, knowledgePassages.documentId), eq(documents.accountId, accountId)))
    .where(and(eq(knowledgePassages.accountId, accountId), sql`numnode(${query}) > 0`, sql`${column} @@ ${query}`))
    .orderBy(desc(rank), knowledgePassages.sourceType, knowledgePassages.position)
    .limit(limit);
}

/** The text of one of the account's passages; undefined when missing. */
export async function findPassageText(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [passage] = await db
    .select({ text: knowledgePassages.text })
    .from(knowledgePassages)
    .where(and(eq(knowledgePassages.accountId, accountId), eq(knowledgePassages.id, id)));
  return passage;
}

/** The text hashes of the passages marked "not helpful" in the conversation. */
export async function findDismissedHashes(db: Executor, { accountId, conversationId }: { accountId: string; conversationId: string }) {
  const rows = await db
    .select({ hash: suggestionDismissals.textHash })
    .from(suggestionDismissals)
    .where(and(eq(suggestionDismissals.accountId, accountId), eq(suggestionDismissals.conversationId, conversationId)));
  return rows.map((row) => row.hash);
}

export async function insertDismissal(db: Executor, { accountId, conversationId, textHash }: { accountId: string; conversationId: string; textHash: string }) {
  await db.insert(suggestionDismissals).values({ accountId, conversationId, textHash }).onConflictDoNothing();
}
