import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as inboundRoute from "@/app/api/sandbox/inbound/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as documentsRoute from "@/app/v1/config/documents/route";
import * as dismissalsRoute from "@/app/v1/conversations/[id]/suggestions/dismissals/route";
import * as suggestionsRoute from "@/app/v1/conversations/[id]/suggestions/route";
import { getDb } from "@/db";
import { conversations, documents, knowledgePassages } from "@/db/schema";
import { PASSAGE_MAX, splitPassages } from "@/lib/profile/knowledge";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";
import { makePdf } from "@/tests/support/pdf";

beforeEach(() => resetRateLimiters());

const simulate = (token: string, body: unknown) => call(inboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body });
const suggest = (token: string, id: string) => call(suggestionsRoute.POST, { method: "POST", path: `/v1/conversations/${id}/suggestions`, token, body: {}, params: { id } });
const dismiss = (token: string, id: string, body: unknown) =>
  call(dismissalsRoute.POST, { method: "POST", path: `/v1/conversations/${id}/suggestions/dismissals`, token, body, params: { id } });

type Item = { id: string; text: string; source: { type: string; page?: number } };

// A one-page catalogue, as a small shop writes it: one paragraph of ~700 characters.
const catalogue =
  "Catálogo Vivero Sol 2026. Ficus lyrata de 1,20 m por 89.900 pesos, con maceta de barro incluida. " +
  "Monstera deliciosa mediana por 45.500 pesos, ideal para interiores luminosos. " +
  "Potus colgante por 12.000 pesos, crece rápido y tolera poca luz. " +
  "Cactus y suculentas desde 3.500 pesos la unidad, con descuentos por docena. " +
  "Macetas de cerámica esmaltada en tres tamaños: chica 8.000, mediana 14.000 y grande 22.000 pesos. " +
  "Tierra fértil premium en bolsa de 10 litros por 6.500 pesos. " +
  "Fertilizante líquido universal de 500 ml por 7.200 pesos, rinde cuatro meses. " +
  "Regaderas metálicas de 2 litros por 9.800 pesos, en verde, blanco y terracota. " +
  "Los envíos al interior tardan de 3 a 5 días hábiles y son gratis en compras de más de 50.000 pesos.";

async function account(description: string, pdfPages?: string[]) {
  const test = await createTestAccount();
  const profile = await call(profileRoute.PUT, {
    method: "PUT",
    path: "/v1/config/business-profile",
    token: test.adminToken,
    body: { name: "Vivero Sol", description, language: "es", hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } },
  });
  expect(profile.status).toBe(200);
  if (pdfPages) {
    const upload = await call(documentsRoute.POST, { method: "POST", path: "/v1/config/documents", token: test.adminToken, body: { filename: "catalogo.pdf", data: makePdf(pdfPages).toString("base64") } });
    expect(upload.status).toBe(201);
  }
  return test;
}

async function customerAsks(token: string, text: string, from = nextPhone()) {
  const res = await simulate(token, { from, type: "text", text });
  expect(res.status).toBe(201);
  return res.body.conversation_id as string;
}

/** A passage starts and ends where a word does, and ends a sentence or the source text. */
function cutCleanly(passage: string, source: string) {
  const flat = source.replace(/\s+/g, " ");
  const at = flat.indexOf(passage.replace(/\s+/g, " "));
  expect(at, `"${passage}" is a piece of the source`).toBeGreaterThanOrEqual(0);
  const before = flat.slice(0, at);
  const after = flat.slice(at + passage.replace(/\s+/g, " ").length);
  expect(before === "" || /[.!?…]\s$/.test(before), `"${passage}" starts a sentence`).toBe(true);
  expect(after === "" || /^\s/.test(after), `"${passage}" ends at a word end`).toBe(true);
  expect(/[.!?…]$/.test(passage) || after === "", `"${passage}" ends a sentence`).toBe(true);
}

describe("suggested passages are short and cut at sentence ends", () => {
  it("a one-page catalogue becomes several passages of at most ~300 characters, none cut inside a sentence", async () => {
    expect(catalogue.length).toBeGreaterThan(700);
    // Wrapped as a page wraps it: about 80 characters a line.
    const page = catalogue.replace(/(.{1,80})(?: |$)/g, "$1\n").trim();
    const { adminToken } = await account("", [page]);
    const res = await suggest(adminToken, await customerAsks(adminToken, "¿Cuánto cuesta la monstera y las macetas de cerámica?"));
    expect(res.status).toBe(200);
    const items = res.body.data as Item[];
    expect(items.length).toBeGreaterThanOrEqual(1);
    for (const item of items) {
      expect(item.text.length).toBeLessThanOrEqual(PASSAGE_MAX);
      cutCleanly(item.text, catalogue);
    }
    expect(items.some((item) => item.text.includes("Macetas de cerámica esmaltada"))).toBe(true);
    const pieces = splitPassages(catalogue);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    for (const piece of pieces) cutCleanly(piece, catalogue);
  });

  it("cuts again the long, mixed passages an earlier version stored, keeping their page", async () => {
    const { account: owner, adminToken } = await account("", ["Portada", "Texto"]);
    const db = getDb();
    const [doc] = await db.select({ id: documents.id }).from(documents).where(eq(documents.accountId, owner.id));
    await db.delete(knowledgePassages).where(eq(knowledgePassages.documentId, doc.id));
    // What the earlier cut stored: one ~700-character passage, a Spanish and an English paragraph joined.
    const mixed = `${catalogue}\nShipping: we deliver nationwide in 3 to 5 working days, free on orders over 50 euros.`;
    await db.execute(sql`insert into knowledge_passages (id, account_id, source_type, document_id, page, position, text, search_en, search_es, search_pt)
      values ('psg_old1', ${owner.id}, 'document', ${doc.id}, 2, 0, ${mixed}, to_tsvector('english', ${mixed}), to_tsvector('spanish', ${mixed}), to_tsvector('portuguese', ${mixed}))`);
    const res = await suggest(adminToken, await customerAsks(adminToken, "¿Cuánto cuesta la monstera y las macetas de cerámica?"));
    const items = res.body.data as Item[];
    expect(items.length).toBeGreaterThanOrEqual(1);
    for (const item of items) {
      expect(item.text.length).toBeLessThanOrEqual(PASSAGE_MAX);
      expect(item.text).not.toContain("Shipping");
      expect(item.source.page).toBe(2);
    }
    const rows = await db.select({ cut: knowledgePassages.cut }).from(knowledgePassages).where(eq(knowledgePassages.documentId, doc.id));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((row) => row.cut === 2)).toBe(true);
  });

  it("indexes an unindexed document once when several suggestions are asked for at the same moment", async () => {
    const { account: owner, adminToken } = await account("", [catalogue.replace(/(.{1,80})(?: |$)/g, "$1\n").trim()]);
    const db = getDb();
    const [doc] = await db.select({ id: documents.id }).from(documents).where(eq(documents.accountId, owner.id));
    const once = (await db.select({ id: knowledgePassages.id }).from(knowledgePassages).where(eq(knowledgePassages.documentId, doc.id))).length;
    expect(once).toBeGreaterThanOrEqual(3);
    await db.delete(knowledgePassages).where(eq(knowledgePassages.documentId, doc.id));
    const ids = await Promise.all([0, 1, 2, 3].map(() => customerAsks(adminToken, "¿Cuánto cuesta la monstera?")));
    const answers = await Promise.all(ids.map((id) => suggest(adminToken, id)));
    for (const res of answers) expect(res.status).toBe(200);
    const rows = await db.select({ text: knowledgePassages.text }).from(knowledgePassages).where(eq(knowledgePassages.documentId, doc.id));
    expect(rows).toHaveLength(once);
  });

  it("keeps paragraphs whole when they fit, joins short ones, and cuts a sentence with no end only at a space", () => {
    expect(splitPassages("Abrimos de lunes a viernes.\n\nAceptamos tarjetas.")).toEqual(["Abrimos de lunes a viernes.\nAceptamos tarjetas."]);
    const long = Array.from({ length: 80 }, (_, i) => `palabra${i}`).join(" ");
    const parts = splitPassages(long);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(PASSAGE_MAX);
    expect(parts.join(" ")).toBe(long);
    // A price's decimal point does not end a sentence.
    expect(splitPassages("O envio custa 9.90 euros. Demora 3 a 5 dias.")).toEqual(["O envio custa 9.90 euros. Demora 3 a 5 dias."]);
  });

  it("cuts a catalogue written one product per line at line ends", () => {
    const lines = Array.from({ length: 14 }, (_, i) => `Planta número ${i + 1} de interior con maceta - ${10 + i}.000 pesos`).join("\n");
    const parts = splitPassages(lines);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(PASSAGE_MAX);
      for (const line of part.split("\n")) expect(lines.split("\n")).toContain(line);
    }
  });
});

describe("suggestions in the customer's language", () => {
  const trilingual = [
    "Envíos: llegamos a todo el país en 3 a 5 días hábiles. El envío cuesta 9,90 euros y es gratis en compras de más de 50 euros.",
    "Shipping: we deliver nationwide in 3 to 5 working days. Shipping costs 9.90 euros and is free on orders over 50 euros.",
    "Entregas: entregamos em todo o país em 3 a 5 dias úteis. O envio custa 9,90 euros e é grátis em compras acima de 50 euros.",
  ].join("\n\n");

  it("a Portuguese customer is offered the Portuguese passage only, never a Spanish or English block", async () => {
    const { adminToken } = await account(trilingual);
    const res = await suggest(adminToken, await customerAsks(adminToken, "Oi, vocês fazem entrega em Lisboa? Quanto custa o envio?"));
    expect(res.body.language).toBe("pt");
    const items = res.body.data as Item[];
    expect(items.length).toBeGreaterThanOrEqual(1);
    for (const item of items) {
      expect(item.text).toMatch(/entregamos em todo o país/);
      expect(item.text).not.toMatch(/llegamos|we deliver/);
    }
  });

  it("a Spanish customer gets the Spanish passage first, an English one the English", async () => {
    const { adminToken } = await account(trilingual);
    const es = await suggest(adminToken, await customerAsks(adminToken, "Hola, ¿cuánto cuesta el envío al interior?"));
    expect((es.body.data as Item[]).map((item) => item.text)).toEqual([expect.stringContaining("llegamos a todo el país")]);
    const en = await suggest(adminToken, await customerAsks(adminToken, "Hi, how much does shipping cost?"));
    expect((en.body.data as Item[]).map((item) => item.text)).toEqual([expect.stringContaining("we deliver nationwide")]);
  });

  it("falls back to another language when nothing in the customer's language matches", async () => {
    const { adminToken } = await account("Envíos: llegamos a todo el país en 3 a 5 días hábiles. El envío cuesta 9,90 euros.");
    const res = await suggest(adminToken, await customerAsks(adminToken, "Oi, quanto custa o envio?"));
    expect((res.body.data as Item[])[0]?.text).toContain("El envío cuesta 9,90 euros");
  });
});

describe("suggestions and the 24-hour window", () => {
  it("offers nothing once the customer's window has closed", async () => {
    const { adminToken } = await account("Envíos: llegamos a todo el país en 3 a 5 días hábiles.");
    const conversationId = await customerAsks(adminToken, "¿hacen envíos a todo el país?");
    expect((await suggest(adminToken, conversationId)).body).toMatchObject({ window_open: true, data: [expect.anything()] });
    await getDb().update(conversations).set({ serviceWindowExpiresAt: new Date(Date.now() - 60_000) }).where(eq(conversations.id, conversationId));
    const closed = await suggest(adminToken, conversationId);
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ data: [], language: "es", window_open: false });
  });
});

describe("an agent's \"not helpful\"", () => {
  // At least two passages that mention shipping.
  const description = [
    "Envíos: llegamos a todo el país en 3 a 5 días hábiles.",
    "Horario amplio todos los días del año para atenderte mejor y con la mejor onda. ".repeat(3).trim(),
    "Retiro en el local: los envíos se pueden retirar gratis de lunes a viernes en el vivero, sin costo de envío.",
  ].join("\n\n");

  it("hides the passage in that conversation only, for good, and refuses what is not a suggestion", async () => {
    const { adminToken } = await account(description);
    const phone = nextPhone();
    const conversationId = await customerAsks(adminToken, "¿hacen envíos a todo el país?", phone);
    const first = (await suggest(adminToken, conversationId)).body.data as Item[];
    expect(first.length).toBeGreaterThanOrEqual(2);
    const top = first[0];
    expect((await dismiss(adminToken, conversationId, { suggestion_id: top.id })).status).toBe(204);
    // Twice is fine.
    expect((await dismiss(adminToken, conversationId, { suggestion_id: top.id })).status).toBe(204);
    const after = (await suggest(adminToken, conversationId)).body.data as Item[];
    expect(after.map((item) => item.text)).not.toContain(top.text);
    expect(after.length).toBe(first.length - 1);
    // The customer writing again does not bring it back.
    await customerAsks(adminToken, "¿y cuánto tardan los envíos?", phone);
    expect(((await suggest(adminToken, conversationId)).body.data as Item[]).map((item) => item.text)).not.toContain(top.text);
    // Another conversation still gets it.
    const other = await customerAsks(adminToken, "¿hacen envíos a todo el país?");
    expect(((await suggest(adminToken, other)).body.data as Item[])[0].text).toBe(top.text);

    for (const body of [{}, { suggestion_id: "" }, { suggestion_id: "psg_\u0000" }, { suggestion_id: 7 }, { suggestion_id: top.id, extra: 1 }, [top.id]]) {
      const res = await dismiss(adminToken, conversationId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await dismiss(adminToken, conversationId, { suggestion_id: "psg_01jd2x8k3f0m6q1v9w4r7t5y2z" })).status).toBe(404);
    const stranger = await createTestAccount();
    expect((await dismiss(stranger.adminToken, conversationId, { suggestion_id: top.id })).status).toBe(404);
  });
});
