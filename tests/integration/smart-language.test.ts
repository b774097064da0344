import { beforeEach, describe, expect, it } from "vitest";
import * as inboundRoute from "@/app/api/sandbox/inbound/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as documentsRoute from "@/app/v1/config/documents/route";
import * as suggestionsRoute from "@/app/v1/conversations/[id]/suggestions/route";
import * as messageRoute from "@/app/v1/messages/[id]/route";
import * as polishRoute from "@/app/v1/messages/polish/route";
import { messages } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { runAutoReplies, type SendAutomatedMessage } from "@/lib/auto-replies/auto-replies";
import { updateBusinessProfile } from "@/lib/profile/business-profile";
import { businessProfileInput } from "@/lib/profile/schemas";
import { newId } from "@/lib/platform/ids";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";
import { makePdf } from "@/tests/support/pdf";
import { BUSINESS_NUMBER, seedConversation, seedMessage } from "@/tests/support/seed";
import { systemContext, verbContext } from "@/lib/server/context";

beforeEach(() => resetRateLimiters());

const simulate = (token: string, body: unknown) => call(inboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body });
const suggest = (token: string, id: string, body: unknown = {}) =>
  call(suggestionsRoute.POST, { method: "POST", path: `/v1/conversations/${id}/suggestions`, token, body, params: { id } });
const putProfile = (token: string, body: unknown) => call(profileRoute.PUT, { method: "PUT", path: "/v1/config/business-profile", token, body });

const weekdays = Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ open: "09:00", close: "18:00" }]]));

describe("the language of inbound messages", () => {
  it.each([
    ["Hola, ¿hacen envíos al interior?", "es"],
    ["Oi, vocês fazem entrega no interior?", "pt"],
    ["Hi, do you ship to the countryside?", "en"],
    ["ok", null],
  ] as const)("%j is stored, served and sent in message.received as %s", async (text, language) => {
    const { account, adminToken } = await createTestAccount();
    const res = await simulate(adminToken, { from: nextPhone(), type: "text", text });
    expect(res.status).toBe(201);
    const message = await call(messageRoute.GET, { path: "/", token: adminToken, params: { id: res.body.id } });
    expect(message.body.language).toBe(language);
    const [event] = await eventsOf(account.id, "message.received");
    expect((event.data as { message: { language: string | null } }).message.language).toBe(language);
  });
});

describe("automatic answers in the customer's language", () => {
  type Sent = { text: string };
  function recordingSend() {
    const calls: Sent[] = [];
    const send: SendAutomatedMessage = async ({ tx, accountId, conversationId, to, text }) => {
      calls.push({ text });
      const now = new Date();
      await tx.insert(messages).values({
        id: newId("message", now), accountId, conversationId, direction: "outbound", fromNumber: BUSINESS_NUMBER, toNumber: to,
        type: "text", text, status: "queued", senderType: "automation", createdAt: now, updatedAt: now,
      });
    };
    return { calls, send };
  }
  // Monday 2026-11-23 20:00 in Buenos Aires: closed.
  const evening = new Date("2026-11-23T23:00:00Z");

  async function spanishBusiness(translations: Record<string, string> = {}) {
    const test = await createTestAccount();
    await updateBusinessProfile({
      ctx: verbContext({ accountId: test.account.id }),
      input: businessProfileInput.parse({
        name: "Vivero Sol",
        description: "",
        language: "es",
        hours: { timezone: "America/Argentina/Buenos_Aires", weekly: weekdays },
        auto_reply: { outside_hours: { enabled: true, message: "¡Gracias por escribir a {{business.name}}! Ahora estamos cerrados.", translations }, hours_question: { enabled: true } },
      }),
    });
    return test;
  }

  async function answer(accountId: string, text: string) {
    const { contact, conversation } = await seedConversation({ accountId, createdAt: evening });
    const message = await seedMessage({ accountId, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text, createdAt: evening });
    const { calls, send } = recordingSend();
    await runAutoReplies(systemContext(), { accountId, conversationId: conversation.id, messageId: message.id, send, now: evening });
    return calls.map((call) => call.text);
  }

  it("a Brazilian and an Argentine customer writing the same evening each get a reply wholly in their language", async () => {
    const { account } = await spanishBusiness({ pt: "Obrigado por escrever para {{business.name}}! Estamos fechados agora." });
    expect(await answer(account.id, "Oi, tudo bem? Vocês entregam no interior?")).toEqual([
      "Obrigado por escrever para Vivero Sol! Estamos fechados agora.\nPróxima abertura: amanhã 09:00 (America/Argentina/Buenos_Aires).",
    ]);
    expect(await answer(account.id, "Hola, ¿hacen envíos al interior?")).toEqual([
      "¡Gracias por escribir a Vivero Sol! Ahora estamos cerrados.\nPróxima apertura: mañana 09:00 (America/Argentina/Buenos_Aires).",
    ]);
  });

  it("a Portuguese customer of a Spanish-speaking business without a Portuguese message gets the Spanish answer, all of it", async () => {
    const { account } = await spanishBusiness();
    const [reply] = await answer(account.id, "Oi, vocês fazem entrega hoje?");
    expect(reply).toBe("¡Gracias por escribir a Vivero Sol! Ahora estamos cerrados.\nPróxima apertura: mañana 09:00 (America/Argentina/Buenos_Aires).");
  });

  it("an English customer asking for the hours gets the hours in English when an English message exists", async () => {
    const { account } = await spanishBusiness({ en: "Thanks for writing to {{business.name}}! We are closed now." });
    const [reply] = await answer(account.id, "What time do you open tomorrow?");
    expect(reply.split("\n").slice(0, 4)).toEqual([
      "Thanks for writing to Vivero Sol! We are closed now.",
      "Next opening: tomorrow 09:00 (America/Argentina/Buenos_Aires).",
      "",
      "Our opening hours:",
    ]);
    expect(reply).not.toMatch(/Próxima|Lunes|Cerrado|horario/);
  });
});

describe("business profile: language and translations", () => {
  const valid = () => ({
    name: "Vivero Sol",
    description: "",
    language: "es",
    hours: { timezone: "Europe/Madrid", weekly: weekdays },
    auto_reply: { outside_hours: { enabled: true, message: "Cerrado", translations: { pt: "Fechado", en: "Closed" } }, hours_question: { enabled: false } },
  });

  it("stores and serves them; an absent language keeps the stored one", async () => {
    const { adminToken } = await createTestAccount();
    const res = await putProfile(adminToken, valid());
    expect(res.status).toBe(200);
    expect(res.body.language).toBe("es");
    expect(res.body.auto_reply.outside_hours.translations).toEqual({ pt: "Fechado", en: "Closed" });
    const withoutLanguage: Partial<ReturnType<typeof valid>> = valid();
    delete withoutLanguage.language;
    const again = await putProfile(adminToken, withoutLanguage);
    expect(again.body.language).toBe("es");
  });

  it.each([
    ["an unknown language code in translations", { auto_reply: { outside_hours: { enabled: true, message: "Cerrado", translations: { fr: "Fermé" } }, hours_question: { enabled: false } } }, "auto_reply.outside_hours.translations"],
    ["a translation over 1000 characters", { auto_reply: { outside_hours: { enabled: true, message: "Cerrado", translations: { pt: "x".repeat(1001) } }, hours_question: { enabled: false } } }, "auto_reply.outside_hours.translations.pt"],
    ["an unknown business language", { language: "de" }, "language"],
  ])("refuses %s with a 400 naming the field, changing nothing", async (_name, patch, field) => {
    const { adminToken } = await createTestAccount();
    const before = await call(profileRoute.GET, { path: "/v1/config/business-profile", token: adminToken });
    const res = await putProfile(adminToken, { ...valid(), ...patch });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    const after = await call(profileRoute.GET, { path: "/v1/config/business-profile", token: adminToken });
    expect(after.body).toEqual(before.body);
  });
});

describe("polishing keeps the draft's language", () => {
  const polish = (token: string, body: unknown) => call(polishRoute.POST, { method: "POST", path: "/v1/messages/polish", token, body });

  it("detects Portuguese and keeps it; a given language wins", async () => {
    const { adminToken } = await createTestAccount();
    const detected = await polish(adminToken, { text: "oi, vc pode me mandar o codigo de rastreio pfv? obg", style: "normal" });
    expect(detected.body).toEqual({ text: "Oi, você pode me mandar o código de rastreio por favor? Obrigado.", style: "normal", language: "pt", engine: "rules" });
    const given = await polish(adminToken, { text: "hola q tal? a que hora abren", style: "normal", language: "es" });
    expect(given.body).toMatchObject({ text: "Hola, ¿qué tal? ¿A qué hora abren?", language: "es" });
  });

  it("refuses an unknown language code naming the field", async () => {
    const { adminToken } = await createTestAccount();
    const res = await polish(adminToken, { text: "bonjour", style: "normal", language: "fr" });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain("language");
  });
});

describe("suggested answers from the business's own knowledge", () => {
  const shippingPdf = makePdf([
    "Plantas de interior y exterior. Macetas de barro y cerámica.",
    "Envíos al interior: llegamos a todas las provincias en 3 a 5 días hábiles. El envío es gratis en compras de más de 50.000 pesos.",
    "Cambios y devoluciones: dentro de los 30 días con el ticket.",
  ]);

  async function accountWithKnowledge() {
    const test = await createTestAccount();
    const profile = await putProfile(test.adminToken, {
      name: "Vivero Sol",
      description: "Vivero en Córdoba. Retiro en el local de lunes a viernes.\n\nAceptamos tarjetas, transferencia y Mercado Pago.",
      language: "es",
      hours: null,
      auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } },
    });
    expect(profile.status).toBe(200);
    const upload = await call(documentsRoute.POST, { method: "POST", path: "/v1/config/documents", token: test.adminToken, body: { filename: "envios.pdf", data: shippingPdf.toString("base64") } });
    expect(upload.status).toBe(201);
    return { ...test, documentId: upload.body.id as string };
  }

  async function customerAsks(token: string, text: string) {
    const res = await simulate(token, { from: nextPhone(), type: "text", text });
    expect(res.status).toBe(201);
    return res.body.conversation_id as string;
  }

  it("answers ¿hacen envíos al interior? from the shipping PDF, with its page", async () => {
    const { adminToken, documentId } = await accountWithKnowledge();
    const conversationId = await customerAsks(adminToken, "Hola! ¿hacen envíos al interior?");
    const res = await suggest(adminToken, conversationId);
    expect(res.status).toBe(200);
    expect(res.body.language).toBe("es");
    expect(res.body.data[0]).toEqual({
      id: expect.stringMatching(/^psg_/),
      text: expect.stringContaining("Envíos al interior: llegamos a todas las provincias"),
      source: { type: "document", document_id: documentId, filename: "envios.pdf", page: 2 },
      score: expect.any(Number),
    });
    const scores = res.body.data.map((item: { score: number }) => item.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("ignores accents and finds the description too", async () => {
    const { adminToken } = await accountWithKnowledge();
    const conversationId = await customerAsks(adminToken, "aceptan mercado pago o tarjetas?");
    const res = await suggest(adminToken, conversationId);
    // Short paragraphs are joined into one passage.
    expect(res.body.data[0]).toEqual({ id: expect.stringMatching(/^psg_/), text: expect.stringContaining("Aceptamos tarjetas, transferencia y Mercado Pago."), source: { type: "description" }, score: expect.any(Number) });
    const unaccented = await suggest(adminToken, await customerAsks(adminToken, "hacen envios a todas las provincias?"));
    expect(unaccented.body.data[0].source.page).toBe(2);
  });

  it("gives an empty list when the customer wrote no text or nothing matches, and 404 for another account's conversation", async () => {
    const { account, adminToken } = await accountWithKnowledge();
    const { conversation } = await seedConversation({ accountId: account.id });
    expect((await suggest(adminToken, conversation.id)).body).toEqual({ data: [] });
    const unrelated = await customerAsks(adminToken, "zzz qwerty");
    expect((await suggest(adminToken, unrelated)).body.data).toEqual([]);
    const other = await createTestAccount();
    expect((await suggest(other.adminToken, conversation.id)).status).toBe(404);
  });

  it("refuses a body that is not an object", async () => {
    const { adminToken } = await accountWithKnowledge();
    const conversationId = await customerAsks(adminToken, "hola");
    expect((await suggest(adminToken, conversationId, [1])).status).toBe(400);
  });

  it("follows the documents: a deleted PDF no longer feeds suggestions", async () => {
    const { adminToken, documentId } = await accountWithKnowledge();
    const { DELETE } = await import("@/app/v1/config/documents/[id]/route");
    expect((await call(DELETE, { method: "DELETE", path: `/v1/config/documents/${documentId}`, token: adminToken, params: { id: documentId } })).status).toBe(204);
    const conversationId = await customerAsks(adminToken, "¿hacen envíos al interior?");
    const res = await suggest(adminToken, conversationId);
    expect(res.body.data.every((item: { source: { type: string } }) => item.source.type === "description")).toBe(true);
  });
});
