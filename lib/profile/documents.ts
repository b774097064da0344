import type { Executor } from "@/db";
import { documents } from "@/db/schema";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { ConflictError, invalidField, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { indexDocument } from "./knowledge";
import { countDocuments, deleteDocumentRow, findDocumentFile, findDocumentTextPrefixes, findDocumentWithText, insertDocument, lockAccountRow, selectDocumentList } from "./store";
import { DOCUMENT_MAX_BYTES, DOCUMENTS_PER_ACCOUNT, documentWithTextOutput, presentDocument, type UploadDocumentInput } from "./schemas";

/** Extracted text kept per document; far more than any prompt uses, bounded so one PDF cannot bloat a row. */
const DOCUMENT_TEXT_MAX = 500_000;

const formatMiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Decodes the upload's Base64 (or data: URL) into bytes, refusing anything over the size limit before decoding it. */
function decodeDocumentData(data: string): Buffer {
  let payload = data;
  const dataUrl = /^data:([^,]*),/i.exec(payload);
  if (dataUrl) {
    if (!/;base64$/i.test(dataUrl[1])) throw invalidField("data", "must be Base64 (a data: URL needs ;base64)");
    payload = payload.slice(dataUrl[0].length);
  }
  payload = payload.replace(/[\r\n\t ]+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) {
    throw invalidField("data", "must be valid Base64");
  }
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  const size = Math.floor((payload.length * 3) / 4) - padding;
  if (size > DOCUMENT_MAX_BYTES) {
    throw invalidField("data", `must be at most 10 MiB once decoded (this file is ${formatMiB(size)})`);
  }
  if (size === 0) throw invalidField("data", "is empty");
  return Buffer.from(payload, "base64");
}

type Extracted = { pages: number; text: string; pageTexts: string[] };

function cleanText(text: string): string {
  return (
    text
      // PostgreSQL text cannot hold NUL; other control characters are layout noise.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, " ")
      .replace(/[ \t]+/g, " ")
      .replace(/ *\n */g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

/** Page count and text of a PDF, or a 400 naming `data` when the bytes are not a readable PDF. */
async function extractPdf(bytes: Buffer): Promise<Extracted> {
  if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") {
    throw invalidField("data", "must be a PDF document (the file does not start with %PDF-)");
  }
  // Loaded on first use: the PDF engine is large and most requests never need it.
  const { extractText, getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given; it gets a copy.
    // Nothing but the text is needed: no fonts or scripts are evaluated, and warnings stay quiet.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, disableFontFace: true, stopAtErrors: false });
  } catch (error) {
    const name = (error as { name?: string } | null)?.name;
    if (name === "PasswordException") throw invalidField("data", "is a password-protected PDF; upload it without a password");
    throw invalidField("data", "could not be read as a PDF (the file is damaged or not a PDF)");
  }
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    const pageTexts = text.map(cleanText);
    const joined = cleanText(pageTexts.filter(Boolean).join("\n\n"));
    let budget = DOCUMENT_TEXT_MAX;
    const keptPages = pageTexts.map((page) => {
      const kept = page.slice(0, Math.max(0, budget));
      budget -= kept.length;
      return kept;
    });
    return { pages: totalPages, text: joined.slice(0, DOCUMENT_TEXT_MAX), pageTexts: keptPages };
  } catch {
    throw invalidField("data", "could not be read as a PDF (its pages could not be read)");
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

export async function listDocuments({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectDocumentList(ctx.db), {
    table: documents,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (d) => ({ t: d.createdAt, id: d.id }),
    present: presentDocument,
  });
}

/** One document with its extracted text (what the smart features read). */
export async function getDocument({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const row = await findDocumentWithText(ctx.db, { accountId: ctx.accountId, id });
  if (!row) throw new NotFoundError("Document");
  return documentWithTextOutput.parse({ ...presentDocument(row), text: row.text });
}

export async function getDocumentFile({ ctx, id }: { ctx: ServiceContext; id: string }) {
  const row = await findDocumentFile(ctx.db, { accountId: ctx.accountId, id });
  if (!row) throw new NotFoundError("Document");
  return row;
}

const limitReached = () =>
  new ConflictError(`An account can keep at most ${DOCUMENTS_PER_ACCOUNT} documents. Delete one before uploading another.`);

export async function uploadDocument({ ctx, input, now = new Date() }: { ctx: ServiceContext; input: UploadDocumentInput; now?: Date }) {
  const bytes = decodeDocumentData(input.data);
  // Checked before the (slow) text extraction, and again under the lock below.
  if ((await countDocuments(ctx.db, { accountId: ctx.accountId })) >= DOCUMENTS_PER_ACCOUNT) throw limitReached();
  const { pages, text, pageTexts } = await extractPdf(bytes);
  const filename = input.filename.replace(/^.*[\\/]/, "") || "document.pdf";

  return ctx.db.transaction(async (tx) => {
    // Serialises uploads of one account so two at once cannot both take the twentieth place.
    await lockAccountRow(tx, { accountId: ctx.accountId });
    if ((await countDocuments(tx, { accountId: ctx.accountId })) >= DOCUMENTS_PER_ACCOUNT) throw limitReached();
    const row = await insertDocument(tx, { id: newId("document", now), accountId: ctx.accountId, filename, size: bytes.length, pages, text, bytes, createdAt: now });
    await indexDocument(tx, { accountId: ctx.accountId, documentId: row.id, pages: pageTexts });
    return presentDocument({ ...row, textLength: text.length });
  });
}

export async function deleteDocument({ ctx, id }: { ctx: ServiceContext; id: string }) {
  if (!(await deleteDocumentRow(ctx.db, { accountId: ctx.accountId, id }))) throw new NotFoundError("Document");
}

/**
 * The documents' text for a prompt, oldest first, within `budget` characters in all: each
 * document gets an equal share, and what a short one leaves over goes to the others.
 */
export async function loadDocumentContext(db: Executor, { accountId, budget }: { accountId: string; budget: number }) {
  // Only a prefix of each text leaves the database: never more than the whole budget per document.
  const rows = await findDocumentTextPrefixes(db, { accountId, budget, limit: DOCUMENTS_PER_ACCOUNT });
  const withText = rows.filter((row) => row.length > 0);
  const shares = new Map<number, number>();
  let remaining = budget;
  // Smallest first, so a short document's unused share flows to the longer ones.
  const order = withText.map((row, index) => ({ index, length: row.length })).sort((a, b) => a.length - b.length);
  order.forEach(({ index, length }, position) => {
    const share = Math.floor(remaining / (order.length - position));
    const take = Math.min(length, share);
    shares.set(index, take);
    remaining -= take;
  });
  return withText.map((row, index) => {
    const take = shares.get(index) ?? 0;
    return { filename: row.filename, text: row.text.slice(0, take), truncated: take < row.length };
  });
}
