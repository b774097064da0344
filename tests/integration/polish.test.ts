import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as documentsRoute from "@/app/v1/config/documents/route";
import * as profileRoute from "@/app/v1/config/business-profile/route";
import * as polishRoute from "@/app/v1/messages/polish/route";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import { resetEnvCache } from "@/lib/platform/env";
import { call } from "@/tests/support/api";
import { startFakeLlm } from "@/tests/support/fake-llm";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { makePdf } from "@/tests/support/pdf";

const path = "/v1/messages/polish";
const polish = (token: string, body: unknown) => call(polishRoute.POST, { method: "POST", path, token, body });

async function namedAccount(name: string) {
  const test = await createTestAccount();
  await call(profileRoute.PUT, {
    method: "PUT",
    path: "/v1/config/business-profile",
    token: test.adminToken,
    body: {
      name,
      description: "Houseplants and pots, delivered across Madrid.",
      hours: null,
      auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } },
    },
  });
  return test;
}

describe("POST /v1/messages/polish with the rules engine", () => {
  it.each([
    {
      language: "en",
      text: "hi pls send me ur order number and i ll check it thx",
      expect: (out: string) => {
        expect(out).toMatch(/^[A-Z]/);
        expect(out).toMatch(/[.!?]$/);
        expect(out).toMatch(/\bplease\b/i);
        expect(out).toMatch(/\byour\b/);
        expect(out).not.toMatch(/\b(?:pls|ur|thx)\b/);
      },
    },
    {
      language: "es",
      text: "hola q tal , te escribo xq tu pedido ya salio. tb te mando la factura",
      expect: (out: string) => {
        expect(out).toMatch(/^Hola/);
        expect(out).toMatch(/\bporque\b/);
        expect(out).toMatch(/También te mando/);
        expect(out).not.toMatch(/\b(?:q|xq|tb)\b/);
        expect(out).not.toMatch(/ ,/);
      },
    },
  ])("normal fixes spacing, capitals, punctuation and $language chat abbreviations", async ({ text, expect: check }) => {
    const { adminToken } = await namedAccount("Green Leaf");
    const res = await polish(adminToken, { text, style: "normal" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ style: "normal", engine: "rules" });
    check(res.body.text);
  });

  it.each([
    ["en", "Hi Maria! I just wanted to let you know that your order #4521 ships on March 12 at 10:30, tracking at https://track.example.com/4521. Thanks so much!", ["Maria", "#4521", "March 12", "10:30", "https://track.example.com/4521"], /^Hi\b|just wanted|Thanks so much/],
    ["es", "Hola, buenos días. La verdad es que creo que tu pedido 8812 llega el martes 3 de junio, te cuesta 45,90 €. Saludos!", ["8812", "martes 3 de junio", "45,90 €"], /^Hola|buenos días|La verdad|creo que|Saludos/],
  ])("concise (%s) drops greetings and filler and keeps numbers, names, dates and links", async (_language, text, keep, dropped) => {
    const { adminToken } = await namedAccount("Green Leaf");
    const res = await polish(adminToken, { text, style: "concise" });
    expect(res.body.engine).toBe("rules");
    for (const item of keep) expect(res.body.text).toContain(item);
    expect(res.body.text).not.toMatch(dropped);
    expect(res.body.text.length).toBeLessThan(text.length);
  });

  it.each([
    ["en", "your refund of $49.99 was processed today", /^Hello, thank you for contacting Green Leaf\./, /\$49\.99/, /Green Leaf team$/],
    ["es", "tu reembolso de 49,99 € ya está procesado", /^Hola, gracias por contactar con Green Leaf\./, /49,99 €/, /Equipo de Green Leaf$/],
  ])("explanatory (%s) adds a courteous opening and closing with the business name and keeps the detail", async (_language, text, opening, detail, closing) => {
    const { adminToken } = await namedAccount("Green Leaf");
    const res = await polish(adminToken, { text, style: "explanatory" });
    expect(res.body.text).toMatch(opening);
    expect(res.body.text).toMatch(detail);
    expect(res.body.text).toMatch(closing);
    expect(res.body.text.length).toBeGreaterThan(text.length);
  });

  it("gives three visibly different results, each unchanged when polished again", async () => {
    const { adminToken } = await namedAccount("Green Leaf");
    const text = "hi!! just wanted to say ur pots arrive tomorrow between 9 and 11 am , pls be home thx";
    const results: Record<string, string> = {};
    for (const style of ["concise", "normal", "explanatory"]) {
      const first = await polish(adminToken, { text, style });
      results[style] = first.body.text;
      const second = await polish(adminToken, { text: first.body.text, style });
      expect(second.body.text).toBe(first.body.text);
    }
    expect(new Set(Object.values(results)).size).toBe(3);
    expect(results.concise.length).toBeLessThan(results.normal.length);
    expect(results.explanatory.length).toBeGreaterThan(results.normal.length);
  });

  it.each([
    ["an unknown style", { text: "hello", style: "funny" }, "style"],
    ["a missing style", { text: "hello" }, "style"],
    ["empty text", { text: "", style: "normal" }, "text"],
    ["blank text", { text: "  \n ", style: "normal" }, "text"],
    ["text over 4096 characters", { text: "a".repeat(4097), style: "normal" }, "text"],
    ["a non-string text", { text: 42, style: "normal" }, "text"],
  ])("refuses %s with a 400 naming the field", async (_name, body, field) => {
    const { adminToken } = await namedAccount("Green Leaf");
    const res = await polish(adminToken, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("is open to agents (messages:write) and closed to tokens without that scope", async () => {
    const { account, adminToken } = await namedAccount("Green Leaf");
    const agent = await addTestUser(account.id, "agent");
    expect((await polish(agent.token, { text: "thx", style: "normal" })).status).toBe(200);
    const readOnly = await call(tokensRoute.POST, {
      method: "POST",
      path: "/v1/auth/tokens",
      token: adminToken,
      body: { name: "read only", permissions: ["messages:read"], expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    expect(readOnly.status).toBe(201);
    const res = await polish(readOnly.body.token, { text: "thx", style: "normal" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("insufficient_scope");
  });
});

describe("POST /v1/messages/polish with an OpenAI-compatible engine", () => {
  let llm: Awaited<ReturnType<typeof startFakeLlm>>;

  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(async () => {
    await llm.close();
  });
  const configure = () => {
    process.env.POLISH_LLM_BASE_URL = llm.baseUrl;
    process.env.POLISH_LLM_API_KEY = "sk-test-polish-key";
    process.env.POLISH_LLM_MODEL = "tiny-polisher-1";
    resetEnvCache();
  };
  afterEach(() => {
    delete process.env.POLISH_LLM_BASE_URL;
    delete process.env.POLISH_LLM_API_KEY;
    delete process.env.POLISH_LLM_MODEL;
    resetEnvCache();
    llm.requests.length = 0;
  });

  it("sends the business profile, document text and style, and returns the model's answer", async () => {
    const { adminToken } = await namedAccount("Green Leaf Plants");
    await call(documentsRoute.POST, { method: "POST", path: "/v1/config/documents", token: adminToken, body: { filename: "returns.pdf", data: makePdf(["Returns accepted within 30 days"]).toString("base64") } });
    configure();
    llm.answer('"Hello! Your order #77 ships tomorrow."');
    const res = await polish(adminToken, { text: "ur order #77 ships tmrw", style: "explanatory" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ text: "Hello! Your order #77 ships tomorrow.", style: "explanatory", language: "en", engine: "llm" });

    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request.authorization).toBe("Bearer sk-test-polish-key");
    expect(request.body.model).toBe("tiny-polisher-1");
    const [system, user] = request.body.messages ?? [];
    expect(system.role).toBe("system");
    expect(system.content).toContain("Green Leaf Plants");
    expect(system.content).toContain("Houseplants and pots, delivered across Madrid.");
    expect(system.content).toContain("Returns accepted within 30 days");
    expect(system.content).toMatch(/Style: explanatory/);
    expect(user).toEqual({ role: "user", content: "ur order #77 ships tmrw" });
  });

  it.each([
    ["the endpoint fails", () => llm.fail(500)],
    ["the endpoint refuses the key", () => llm.fail(401)],
    ["the answer is empty", () => llm.answer("   ")],
    ["the answer has no content", () => llm.answer(null)],
    ["the answer is not JSON", () => llm.notJson()],
    ["the answer is longer than a message may be", () => llm.answer("x".repeat(5000))],
  ])("falls back to the rules engine when %s", async (_name, arrange) => {
    const { adminToken } = await namedAccount("Green Leaf");
    configure();
    arrange();
    const res = await polish(adminToken, { text: "pls call me tmrw thx", style: "normal" });
    expect(res.status).toBe(200);
    expect(res.body.engine).toBe("rules");
    expect(res.body.text).toMatch(/^Please call me/);
    expect(llm.requests).toHaveLength(1);
  });

  it("falls back to the rules engine after 3 seconds", async () => {
    const { adminToken } = await namedAccount("Green Leaf");
    configure();
    llm.slow(6000);
    const started = Date.now();
    const res = await polish(adminToken, { text: "hola q tal", style: "normal" });
    const elapsed = Date.now() - started;
    expect(res.body).toMatchObject({ engine: "rules", style: "normal" });
    expect(res.body.text).toMatch(/^Hola/);
    expect(elapsed).toBeGreaterThanOrEqual(2900);
    expect(elapsed).toBeLessThan(5000);
  });

  it("falls back when the endpoint cannot be reached", async () => {
    const { adminToken } = await namedAccount("Green Leaf");
    configure();
    process.env.POLISH_LLM_BASE_URL = "http://127.0.0.1:9/v1";
    resetEnvCache();
    const res = await polish(adminToken, { text: "thx", style: "normal" });
    expect(res.body.engine).toBe("rules");
  });
});
