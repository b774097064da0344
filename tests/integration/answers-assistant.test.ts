import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as inboundRoute from "@/app/api/sandbox/inbound/route";
import * as assistantConfigRoute from "@/app/v1/config/assistant/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as draftRoute from "@/app/v1/conversations/[id]/draft/route";
import * as suggestionsRoute from "@/app/v1/conversations/[id]/suggestions/route";
import { getDb } from "@/db";
import { auditLog, conversationActivities, conversations, messages } from "@/db/schema";
import { type SendAutomatedMessage } from "@/lib/auto-replies/auto-replies";
import { createAutoReplyJob } from "@/lib/auto-replies/job";
import { resetEnvCache } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { startFakeLlm } from "@/tests/support/fake-llm";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { eventsOf, nextPhone } from "@/tests/support/messaging";
import { BUSINESS_NUMBER, seedConversation, seedMessage } from "@/tests/support/seed";
import { systemContext } from "@/lib/server/context";

let llm: Awaited<ReturnType<typeof startFakeLlm>>;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => resetRateLimiters());
const configure = () => {
  process.env.LLM_BASE_URL = llm.baseUrl;
  process.env.LLM_API_KEY = "sk-test-assistant-key";
  process.env.LLM_MODEL = "tiny-assistant-1";
  resetEnvCache();
};
afterEach(() => {
  for (const name of ["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL", "POLISH_LLM_BASE_URL", "POLISH_LLM_API_KEY", "POLISH_LLM_MODEL"]) delete process.env[name];
  resetEnvCache();
  llm.requests.length = 0;
});

const shipping =
  "Envíos: llegamos a todo el país en 3 a 5 días hábiles. El envío cuesta 9,90 euros y es gratis en compras de más de 50 euros. Seguimiento en www.viverosol.es/envios.";
const weekdays = Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ open: "09:00", close: "18:00" }]]));

async function business() {
  const test = await createTestAccount();
  const res = await call(profileRoute.PUT, {
    method: "PUT",
    path: "/v1/config/business-profile",
    token: test.adminToken,
    body: {
      name: "Vivero Sol",
      description: `${shipping}\n\nPlantas de interior y exterior, macetas de barro y cerámica.`,
      language: "es",
      hours: { timezone: "Europe/Madrid", weekly: weekdays },
      auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } },
    },
  });
  expect(res.status).toBe(200);
  return test;
}

const draft = (token: string, id: string, body: unknown = {}) => call(draftRoute.POST, { method: "POST", path: `/v1/conversations/${id}/draft`, token, body, params: { id } });
const getConfig = (token: string) => call(assistantConfigRoute.GET, { path: "/v1/config/assistant", token });
const putConfig = (token: string, body: unknown) => call(assistantConfigRoute.PUT, { method: "PUT", path: "/v1/config/assistant", token, body });

async function customerAsks(token: string, text: string) {
  const res = await call(inboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body: { from: nextPhone(), type: "text", text } });
  expect(res.status).toBe(201);
  return res.body.conversation_id as string;
}

describe("Draft a reply", () => {
  it("writes an answer from the retrieved passages and returns the passages it cites", async () => {
    const { adminToken } = await business();
    configure();
    const conversationId = await customerAsks(adminToken, "Hola, ¿cuánto cuesta el envío y cuánto tarda?");
    expect((await call(suggestionsRoute.POST, { method: "POST", path: "/", token: adminToken, body: {}, params: { id: conversationId } })).body.draft).toBe(true);
    llm.assistantAnswer("¡Hola! El envío cuesta 9,90 euros, tarda de 3 a 5 días hábiles y es gratis desde 50 euros. Podés seguirlo en www.viverosol.es/envios.", [1]);
    const res = await draft(adminToken, conversationId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      text: "¡Hola! El envío cuesta 9,90 euros, tarda de 3 a 5 días hábiles y es gratis desde 50 euros. Podés seguirlo en www.viverosol.es/envios.",
      sources: [{ type: "description", excerpt: expect.stringContaining("El envío cuesta 9,90 euros") }],
    });
    const [request] = llm.requests;
    expect(request.authorization).toBe("Bearer sk-test-assistant-key");
    expect(request.body.model).toBe("tiny-assistant-1");
    expect(request.body.messages?.[0].content).toContain("[1] Envíos: llegamos a todo el país");
    expect(request.body.messages?.[0].content).toContain("Spanish");
    expect(request.body.messages?.[1]).toEqual({ role: "user", content: "Hola, ¿cuánto cuesta el envío y cuánto tarda?" });
    expect(JSON.stringify(res.body)).not.toContain("sk-test");
  });

  it.each([
    ["an invented price", "El envío cuesta 7,50 euros."],
    ["an invented delivery time", "Llega en 24 horas."],
    ["an invented link", "Mirá las ofertas en www.ofertas-plantas.com"],
    ["an invented date", "Enviamos a partir del 15 de diciembre."],
  ])("discards %s: 409 no_answer", async (_case, answer) => {
    const { adminToken } = await business();
    configure();
    const conversationId = await customerAsks(adminToken, "¿Cuánto cuesta el envío?");
    llm.assistantAnswer(answer, [1]);
    const res = await draft(adminToken, conversationId);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("no_answer");
  });

  it("is 409 no_answer when the model has no answer, cites nothing, or nothing matches", async () => {
    const { adminToken } = await business();
    configure();
    const conversationId = await customerAsks(adminToken, "¿Cuánto cuesta el envío?");
    llm.assistantAnswer(null, []);
    expect((await draft(adminToken, conversationId)).body.error.code).toBe("no_answer");
    llm.assistantAnswer("Sí, hacemos envíos.", []);
    expect((await draft(adminToken, conversationId)).body.error.code).toBe("no_answer");
    llm.answer("I think shipping is cheap!");
    expect((await draft(adminToken, conversationId)).body.error.code).toBe("no_answer");
    const before = llm.requests.length;
    const unrelated = await customerAsks(adminToken, "zzz qwerty");
    expect((await draft(adminToken, unrelated)).body.error.code).toBe("no_answer");
    expect(llm.requests.length).toBe(before);
  });

  it("is off without a model (the old POLISH_LLM_* names still turn it on), 502 when the model fails, 404 for another account", async () => {
    const { adminToken } = await business();
    const conversationId = await customerAsks(adminToken, "¿Cuánto cuesta el envío?");
    const off = await draft(adminToken, conversationId);
    expect(off.status).toBe(409);
    expect(off.body.error.code).toBe("assistant_off");
    expect((await call(suggestionsRoute.POST, { method: "POST", path: "/", token: adminToken, body: {}, params: { id: conversationId } })).body.draft).toBe(false);
    process.env.POLISH_LLM_BASE_URL = llm.baseUrl;
    process.env.POLISH_LLM_API_KEY = "sk-old-name";
    process.env.POLISH_LLM_MODEL = "old-model";
    resetEnvCache();
    llm.assistantAnswer("El envío cuesta 9,90 euros.", [1]);
    expect((await draft(adminToken, conversationId)).status).toBe(200);
    expect(llm.requests.at(-1)?.authorization).toBe("Bearer sk-old-name");
    llm.fail(500);
    const failed = await draft(adminToken, conversationId);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("assistant_unavailable");
    expect(JSON.stringify(failed.body)).not.toContain("sk-old-name");
    const stranger = await createTestAccount();
    expect((await draft(stranger.adminToken, conversationId)).status).toBe(404);
    expect((await draft(adminToken, conversationId, { text: "x" })).status).toBe(400);
  });
});

describe("the assistant's settings", () => {
  it("defaults to off, saves both fields, refuses bad input and agents, and is audited", async () => {
    const { account, adminToken } = await business();
    expect((await getConfig(adminToken)).body).toEqual({ answer_outside_hours: false, min_score: 0.1, available: false });
    configure();
    const saved = await putConfig(adminToken, { answer_outside_hours: true, min_score: 0.25 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ answer_outside_hours: true, min_score: 0.25, available: true });
    expect((await getConfig(adminToken)).body).toEqual({ answer_outside_hours: true, min_score: 0.25, available: true });
    for (const body of [{}, { answer_outside_hours: "yes", min_score: 0.1 }, { answer_outside_hours: true, min_score: 2 }, { answer_outside_hours: true, min_score: -1 }, { answer_outside_hours: true }, [1]]) {
      expect((await putConfig(adminToken, body)).status, JSON.stringify(body)).toBe(400);
    }
    const agent = await addTestUser(account.id, "agent");
    expect((await putConfig(agent.token, { answer_outside_hours: false, min_score: 0.1 })).status).toBe(403);
    const audits = await getDb().select().from(auditLog).where(and(eq(auditLog.accountId, account.id), eq(auditLog.action, "assistant.updated")));
    expect(audits).toHaveLength(1);
  });
});

describe("answering outside opening hours", () => {
  // Monday 2026-11-23 23:30 in Madrid: closed.
  const night = new Date("2026-11-23T22:30:00Z");
  // Tuesday 2026-11-24 11:00 in Madrid: open.
  const morning = new Date("2026-11-24T10:00:00Z");

  function recordingSend() {
    const sent: string[] = [];
    const send: SendAutomatedMessage = async ({ tx, accountId, conversationId, to, text }) => {
      sent.push(text);
      const now = new Date();
      await tx.insert(messages).values({
        id: newId("message", now), accountId, conversationId, direction: "outbound", fromNumber: BUSINESS_NUMBER, toNumber: to,
        type: "text", text, status: "queued", senderType: "automation", createdAt: now, updatedAt: now,
      });
    };
    return { sent, send };
  }

  async function nightQuestion(text: string, { at = night, minScore = 0.01, on = true } = {}) {
    const test = await business();
    configure();
    expect((await putConfig(test.adminToken, { answer_outside_hours: on, min_score: minScore })).status).toBe(200);
    const { contact, conversation } = await seedConversation({ accountId: test.account.id, createdAt: at, status: "assigned", assignedTo: test.admin.id });
    const message = await seedMessage({ accountId: test.account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text, createdAt: at });
    const { sent, send } = recordingSend();
    const handler = createAutoReplyJob(send, { clock: () => new Date(at.getTime() + 30_000) }).handler;
    await handler({ accountId: test.account.id, conversationId: conversation.id, messageId: message.id }, { jobId: 1, attempt: 1, now: new Date(), system: systemContext() });
    const [after] = await getDb().select().from(conversations).where(eq(conversations.id, conversation.id));
    const activities = await getDb().select().from(conversationActivities).where(eq(conversationActivities.conversationId, conversation.id));
    return { sent, after, activities, test };
  }

  it("answers a question from the documents at midnight, through the auto-reply job", async () => {
    llm.assistantAnswer("El envío cuesta 9,90 euros y tarda de 3 a 5 días hábiles.", [1]);
    const { sent, after, activities } = await nightQuestion("Hola, ¿cuánto cuesta el envío?");
    expect(sent).toEqual(["El envío cuesta 9,90 euros y tarda de 3 a 5 días hábiles."]);
    expect(after.assignedTo).not.toBeNull();
    expect(activities.map((activity) => [activity.type, activity.data])).toEqual([["auto_reply", { kind: "assistant" }]]);
  });

  it("never states a price the business never wrote: says a person will answer and hands the conversation over", async () => {
    llm.assistantAnswer("El envío cuesta solo 4,99 euros.", [1]);
    const { sent, after, activities, test } = await nightQuestion("Hola, ¿cuánto cuesta el envío?");
    expect(sent).toEqual(["Una persona te responderá en cuanto abramos."]);
    expect(after.assignedTo).toBeNull();
    expect(after.status).toBe("open");
    const [unassigned] = await eventsOf(test.account.id, "conversation.unassigned");
    expect(unassigned.data).toMatchObject({ conversation: { id: after.id, status: "open", assigned_to: null } });
    expect(activities.find((activity) => activity.type === "handed_off")?.data).toEqual({ reason: "ungrounded" });
  });

  it.each([
    ["quiero hablar con una persona", "Una persona te responderá en cuanto abramos."],
    ["Quero falar com um atendente, por favor", "Uma pessoa vai responder assim que abrirmos."],
    ["human please", "A person will answer as soon as we open."],
  ])("hands %j to a person in the customer's language, without asking the model", async (text, reply) => {
    llm.assistantAnswer("El envío cuesta 9,90 euros.", [1]);
    const { sent, after, activities } = await nightQuestion(text);
    expect(sent).toEqual([reply]);
    expect(after.assignedTo).toBeNull();
    expect(activities.find((activity) => activity.type === "handed_off")?.data).toEqual({ reason: "asked_for_person" });
    expect(llm.requests).toHaveLength(0);
  });

  it("says a person will answer once per quiet period, not to every line the customer sends at night", async () => {
    const { sent, test, after } = await nightQuestion("hola, quiero hablar con una persona");
    expect(sent).toEqual(["Una persona te responderá en cuanto abramos."]);
    const later = new Date(night.getTime() + 60_000);
    const [contactRow] = await getDb().select({ phone: messages.fromNumber }).from(messages).where(eq(messages.conversationId, after.id)).limit(1);
    const second = await seedMessage({ accountId: test.account.id, conversationId: after.id, phone: contactRow.phone, direction: "inbound", text: "hola?? alguien? una persona por favor", createdAt: later });
    const again = recordingSend();
    await createAutoReplyJob(again.send, { clock: () => new Date(later.getTime() + 30_000) }).handler({ accountId: test.account.id, conversationId: after.id, messageId: second.id }, { jobId: 3, attempt: 1, now: new Date(), system: systemContext() });
    expect(again.sent).toEqual([]);
  });

  it("still hands the conversation to a person when they ask again within the quiet period, without telling them twice", async () => {
    const { sent, test, after } = await nightQuestion("hola, quiero hablar con una persona");
    expect(sent).toEqual(["Una persona te responderá en cuanto abramos."]);
    // Someone took it meanwhile; the customer asks for a person again an hour later.
    await getDb().update(conversations).set({ assignedTo: test.admin.id, status: "assigned" }).where(eq(conversations.id, after.id));
    const later = new Date(night.getTime() + 3_600_000);
    const [contactRow] = await getDb().select({ phone: messages.fromNumber }).from(messages).where(eq(messages.conversationId, after.id)).limit(1);
    const second = await seedMessage({ accountId: test.account.id, conversationId: after.id, phone: contactRow.phone, direction: "inbound", text: "quiero hablar con una persona, por favor", createdAt: later });
    const again = recordingSend();
    await createAutoReplyJob(again.send, { clock: () => new Date(later.getTime() + 30_000) }).handler({ accountId: test.account.id, conversationId: after.id, messageId: second.id }, { jobId: 4, attempt: 1, now: new Date(), system: systemContext() });
    expect(again.sent).toEqual([]);
    const [row] = await getDb().select({ assignedTo: conversations.assignedTo }).from(conversations).where(eq(conversations.id, after.id));
    expect(row.assignedTo).toBeNull();
    const handoffs = await getDb().select().from(conversationActivities).where(and(eq(conversationActivities.conversationId, after.id), eq(conversationActivities.type, "handed_off")));
    expect(handoffs).toHaveLength(2);
  });

  it("asks a person when the best passage scores below the threshold", async () => {
    llm.assistantAnswer("El envío cuesta 9,90 euros.", [1]);
    const { sent, activities } = await nightQuestion("¿cuánto cuesta el envío?", { minScore: 1 });
    expect(sent).toEqual(["Una persona te responderá en cuanto abramos."]);
    expect(activities.find((activity) => activity.type === "handed_off")?.data).toEqual({ reason: "below_threshold" });
    expect(llm.requests).toHaveLength(0);
  });

  it("stays silent while open, when turned off, and without a model", async () => {
    llm.assistantAnswer("El envío cuesta 9,90 euros.", [1]);
    expect((await nightQuestion("¿cuánto cuesta el envío?", { at: morning })).sent).toEqual([]);
    expect((await nightQuestion("¿cuánto cuesta el envío?", { on: false })).sent).toEqual([]);
    const test = await business();
    expect((await putConfig(test.adminToken, { answer_outside_hours: true, min_score: 0 })).status).toBe(200);
    for (const name of ["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"]) delete process.env[name];
    resetEnvCache();
    const { contact, conversation } = await seedConversation({ accountId: test.account.id, createdAt: night });
    const message = await seedMessage({ accountId: test.account.id, conversationId: conversation.id, phone: contact.phone, direction: "inbound", text: "¿cuánto cuesta el envío?", createdAt: night });
    const { sent, send } = recordingSend();
    await createAutoReplyJob(send, { clock: () => new Date(night.getTime() + 30_000) }).handler({ accountId: test.account.id, conversationId: conversation.id, messageId: message.id }, { jobId: 2, attempt: 1, now: new Date(), system: systemContext() });
    expect(sent).toEqual([]);
  });
});
