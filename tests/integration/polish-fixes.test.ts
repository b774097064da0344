import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { contacts } from "@/db/schema";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as polishRoute from "@/app/v1/messages/polish/route";
import { startLoadingSpellers } from "@/lib/polish/spelling";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { seedConversation } from "@/tests/support/messaging";

const path = "/v1/messages/polish";
const polish = (token: string, body: unknown) => call(polishRoute.POST, { method: "POST", path, token, body });

async function shopWithCustomer({ contactName, description }: { contactName: string; description: string }) {
  const test = await createTestAccount();
  await call(profileRoute.PUT, {
    method: "PUT",
    path: "/v1/config/business-profile",
    token: test.adminToken,
    body: { name: "Verde Vivo", description, hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } },
  });
  const { conversation, contact } = await seedConversation({ accountId: test.account.id });
  await getDb().update(contacts).set({ name: contactName }).where(eq(contacts.id, contact.id));
  return { ...test, conversationId: conversation.id };
}

const lisbonShop = "Plantas de interior entregues em casa. Entregamos em Lisboa, no Porto e em Coimbra.";

describe("POST /v1/messages/polish fixes real mistakes with the rules engine", () => {
  it("answers while the dictionaries are still loading, with the rules that need none", async () => {
    // The first polish of this process starts the dictionaries loading; it is not held up by them.
    const { adminToken, conversationId } = await shopWithCustomer({ contactName: "Ana Souza", description: lisbonShop });
    const started = performance.now();
    const res = await polish(adminToken, { text: "o envio e 9,90 e demora 3 a 5 dias uteis", style: "normal", language: "pt", conversation_id: conversationId });
    expect(res.status).toBe(200);
    expect(res.body.text).toBe("O envio é 9,90 e demora 3 a 5 dias úteis.");
    expect(performance.now() - started).toBeLessThan(2000);
  });

  describe("with the dictionaries loaded", () => {
    beforeAll(async () => {
      await startLoadingSpellers();
    }, 60_000);

    it("turns the hurried Portuguese of the issue into correct Portuguese, names and numbers included, under every style", async () => {
      const { adminToken, conversationId } = await shopWithCustomer({ contactName: "Ana Souza", description: lisbonShop });
      const text = "oi ana sim entregamos em lisboa o envio e 9,90 e demora uns 3 a 5 dias uteis";
      const normal = await polish(adminToken, { text, style: "normal", conversation_id: conversationId });
      expect(normal.status).toBe(200);
      expect(normal.body).toMatchObject({ language: "pt", engine: "rules" });
      expect(normal.body.text).toBe("Oi Ana, sim, entregamos em Lisboa o envio é 9,90 e demora uns 3 a 5 dias úteis.");
      for (const style of ["concise", "explanatory"]) {
        const res = await polish(adminToken, { text, style, conversation_id: conversationId });
        expect(res.status).toBe(200);
        // The tone changes the frame, never undoes a fix.
        for (const fixed of ["Ana", "Lisboa", "é 9,90", "3 a 5 dias úteis"]) expect(res.body.text).toContain(fixed);
        expect(res.body.text).not.toMatch(/\b(?:ana|lisboa|uteis)\b|envio e 9/);
      }
    });

    it("writes the team's names with their capitals, and the contact's only for its own conversation", async () => {
      const { account, adminToken, conversationId } = await shopWithCustomer({ contactName: "Lucía", description: "Plantas y macetas con envío a toda España desde Sevilla." });
      await addTestUser(account.id, "agent", "Javier Ortiz");
      const withConversation = await polish(adminToken, { text: "hola lucia, javier te llama mañana desde sevilla", style: "normal", language: "es", conversation_id: conversationId });
      expect(withConversation.body.text).toBe("Hola Lucía, Javier te llama mañana desde Sevilla.");
      const without = await polish(adminToken, { text: "hola lucia, javier te llama mañana desde sevilla", style: "normal", language: "es" });
      expect(without.body.text).toBe("Hola lucia, Javier te llama mañana desde Sevilla.");
    });

    it("fixes English misspellings a dictionary is sure of and leaves the plant names the business writes", async () => {
      const { adminToken, conversationId } = await shopWithCustomer({ contactName: "Sarah", description: "Rare houseplants: monstera, pothos and calathea, delivered across Brighton." });
      const res = await polish(adminToken, {
        text: "hi sarah, we recieved ur monstera and pothos order, it leaves brighton on friday",
        style: "normal",
        language: "en",
        conversation_id: conversationId,
      });
      expect(res.body.text).toBe("Hi Sarah, we received your monstera and pothos order, it leaves Brighton on Friday.");
    });

    it("never changes numbers, prices, links, e-mail addresses or phone numbers, whatever the style", async () => {
      const { adminToken, conversationId } = await shopWithCustomer({ contactName: "Ana", description: lisbonShop });
      const kept = ["R$ 1.299,90", "9,90€", "https://verdevivo.pt/pedido/AB12-x9?ref=wpp", "ana.souza+loja@gmail.com", "+351 912 345 678", "#4521", "10:30", "3x"];
      const text = `oi ana vc pode pagar R$ 1.299,90 ou 9,90€ em https://verdevivo.pt/pedido/AB12-x9?ref=wpp ate 10:30, o pedido #4521 vai em 3x. qq duvida mande email p ana.souza+loja@gmail.com ou ligue +351 912 345 678`;
      for (const style of ["normal", "concise", "explanatory"]) {
        const res = await polish(adminToken, { text, style, conversation_id: conversationId });
        expect(res.status).toBe(200);
        for (const span of kept) expect(res.body.text).toContain(span);
      }
    });
  });

  it("answers 404 for a conversation of another account and 400 for a malformed id, changing nothing", async () => {
    const mine = await shopWithCustomer({ contactName: "Ana", description: lisbonShop });
    const other = await shopWithCustomer({ contactName: "Maria", description: lisbonShop });
    const foreign = await polish(mine.adminToken, { text: "oi maria", style: "normal", conversation_id: other.conversationId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    const malformed = await polish(mine.adminToken, { text: "oi maria", style: "normal", conversation_id: "conv_../../x" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe("validation_error");
  });
});
