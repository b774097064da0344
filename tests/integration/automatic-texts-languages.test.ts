import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as csatRoute from "@/app/v1/config/csat/route";
import * as closeRoute from "@/app/v1/conversations/[id]/close/route";
import { getDb } from "@/db";
import { messages } from "@/db/schema";
import { runAutoReplies, type SendAutomatedMessage } from "@/lib/auto-replies/auto-replies";
import { DEFAULT_CSAT_QUESTION } from "@/lib/csat/schemas";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";
import { drain } from "@/tests/support/webhooks";
import { systemContext } from "@/lib/server/context";

// Every text the product sends a customer on its own comes in the customer's language when it is
// known, else in the business's, for a business that configured no words of its own.
type Account = Awaited<ReturnType<typeof createTestAccount>>;
// Monday 2026-11-23, 20:00 in Madrid: closed.
const mondayEvening = new Date("2026-11-23T19:00:00.000Z");
const weekdays = Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ open: "09:00", close: "18:00" }]]));

async function business(language: "es" | "pt", message: string) {
  const account = await createTestAccount();
  const res = await call(profileRoute.PUT, {
    method: "PUT",
    path: "/v1/config/business-profile",
    token: account.adminToken,
    body: {
      name: "Vivero Sol",
      description: "",
      language,
      hours: { timezone: "Europe/Madrid", weekly: weekdays },
      auto_reply: { outside_hours: { enabled: true, message }, hours_question: { enabled: false } },
    },
  });
  expect(res.status, res.text).toBe(200);
  return account;
}

async function customerSays(account: Account, from: string, body: Record<string, unknown>) {
  const res = await call(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token: account.adminToken, body: { from, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
}

/** The outside-hours answer to `text`, as the automatic-answer job decides and sends it. */
async function outsideHoursAnswer(account: Account, text: string) {
  const inbound = await customerSays(account, nextPhone(), { type: "text", text });
  // The customer wrote on Monday evening, after closing, whatever the clock of the test run says.
  await getDb().update(messages).set({ createdAt: mondayEvening }).where(eq(messages.id, inbound.id));
  const sent: string[] = [];
  const send: SendAutomatedMessage = async ({ text: answer }) => {
    sent.push(answer);
  };
  await runAutoReplies(systemContext(), { accountId: account.account.id, conversationId: inbound.conversation_id, messageId: inbound.id, send, now: mondayEvening });
  expect(sent).toHaveLength(1);
  return sent[0];
}

const automated = (conversationId: string) =>
  getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.senderType, "automation")))
    .orderBy(asc(messages.createdAt), asc(messages.id));

describe("automatic texts in the customer's language, with nothing configured", () => {
  beforeEach(() => resetRateLimiters());

  for (const message of ["", "Thanks for your message! We're closed right now and will answer as soon as we open."]) {
    const how = message ? "the product's English default saved" : "no message written";
    it(`answers out of hours in Spanish, Portuguese or the business's language (${how})`, async () => {
      const spanishBusiness = await business("es", message);
      expect(await outsideHoursAnswer(spanishBusiness, "Hola, ¿tenéis macetas de barro?")).toMatch(/^¡Gracias por tu mensaje! Ahora estamos cerrados/);
      expect(await outsideHoursAnswer(spanishBusiness, "Olá, vocês têm vasos de barro?")).toMatch(/^Obrigado pela sua mensagem! Estamos fechados agora/);
      // No clue in "ok": the business's language, never English.
      const unclear = await outsideHoursAnswer(spanishBusiness, "ok");
      expect(unclear).toMatch(/^¡Gracias por tu mensaje!/);
      expect(unclear).not.toMatch(/Thanks|closed|opening/i);

      const portugueseBusiness = await business("pt", message);
      expect(await outsideHoursAnswer(portugueseBusiness, "ok")).toMatch(/^Obrigado pela sua mensagem!/);
      expect(await outsideHoursAnswer(portugueseBusiness, "Hello, do you ship to Porto?")).toMatch(/^Thanks for your message!/);
    });
  }

  it("keeps the business's own words when it wrote some", async () => {
    const account = await business("es", "Estamos cerrados, volvemos pronto.");
    expect(await outsideHoursAnswer(account, "Olá, vocês têm vasos?")).toMatch(/^Estamos cerrados, volvemos pronto\./);
  });

  it("asks the survey question, lists the scores and thanks the customer in their language", async () => {
    for (const [language, customerText, expected] of [
      ["pt", "Oi, meu pedido ainda não chegou", { body: /^Como você avalia/, button: "Avalie-nos", five: "5 - Excelente", thanks: "Obrigado pela sua avaliação!" }],
      ["es", "Hola, mi pedido no ha llegado todavía", { body: /^¿Cómo valorarías/, button: "Valóranos", five: "5 - Excelente", thanks: "¡Gracias por tu valoración!" }],
      // A customer whose language is unclear gets the business's.
      ["pt", "👍", { body: /^Como você avalia/, button: "Avalie-nos", five: "5 - Excelente", thanks: "Obrigado pela sua avaliação!" }],
    ] as const) {
      const account = await business(language, "");
      const survey = await call(csatRoute.PUT, { method: "PUT", path: "/v1/config/csat", token: account.adminToken, body: { enabled: true, question: DEFAULT_CSAT_QUESTION } });
      expect(survey.status, survey.text).toBe(200);
      const from = nextPhone();
      const first = await customerSays(account, from, { type: "text", text: customerText });
      const closed = await call(closeRoute.POST, { method: "POST", path: "/", token: account.adminToken, params: { id: first.conversation_id } });
      expect(closed.status, closed.text).toBe(200);
      await drain();
      // (The closed business may have answered the first message out of hours.)
      const question = (await automated(first.conversation_id)).find((m) => m.type === "interactive")!;
      const list = (question.content as { interactive: { body: string; button: string; sections: { rows: { id: string; title: string }[] }[] } }).interactive;
      expect(list.body).toMatch(expected.body);
      expect(list.button).toBe(expected.button);
      expect(list.sections[0].rows.at(-1)).toEqual({ id: "csat_5", title: expected.five });

      await customerSays(account, from, { type: "interactive", interactive: { type: "list_reply", id: "csat_5", title: expected.five } });
      const afterQuestion = async () => (await automated(first.conversation_id)).filter((m) => m.createdAt > question.createdAt).map((m) => m.text);
      expect(await afterQuestion()).toEqual([expected.thanks]);
      // A second answer changes nothing and is not thanked again.
      await customerSays(account, from, { type: "interactive", interactive: { type: "list_reply", id: "csat_4", title: "4" } });
      expect(await afterQuestion()).toEqual([expected.thanks]);
    }
  });
});
