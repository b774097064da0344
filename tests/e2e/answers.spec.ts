import { type APIRequestContext, expect, test } from "@playwright/test";
import { startFakeLlm } from "../support/fake-llm";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

const phoneViewport = { width: 390, height: 844 };

const knowledge = [
  "Envíos: llegamos a todo el país en 3 a 5 días hábiles. El envío cuesta 9,90 euros y es gratis en compras de más de 50 euros.",
  "Shipping: we deliver nationwide in 3 to 5 working days. Shipping costs 9.90 euros and is free on orders over 50 euros.",
  "Entregas: entregamos em todo o país em 3 a 5 dias úteis. O envio custa 9,90 euros e é grátis em compras acima de 50 euros.",
  "Trocas: aceitamos trocas em até 30 dias com o talão de compra. O envio da troca é por nossa conta. A planta deve voltar no vaso original e bem embalada, e o reembolso é feito em até 7 dias úteis depois de a recebermos.",
].join("\n\n");

async function customerWrites(request: APIRequestContext, token: string, from: string, name: string, text: string) {
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name, type: "text", text } });
  expect(res.status()).toBe(201);
}

test("at phone width, a Portuguese customer's answers come collapsed to one line, in Portuguese, and the top one goes in with one tap", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(phoneViewport);
  const token = await adminApiToken(request);
  const profile = await request.put("/v1/config/business-profile", {
    headers: { authorization: `Bearer ${token}` },
    data: { name: "Vivero Sol", description: knowledge, language: "es", hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } },
  });
  expect(profile.status()).toBe(200);
  const from = `3519${String(Date.now()).slice(-8)}`;
  await customerWrites(request, token, from, "Ana Sousa", "Oi, vocês fazem entrega em Lisboa? Quanto custa o envio?");

  await signInAsOwner(page);
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: /Ana Sousa/ }).click();
  const suggestions = page.getByRole("region", { name: "From your documents" });
  const line = suggestions.getByRole("button", { name: /answers? from your documents/ });
  await expect(line).toBeVisible();
  await expect(line).toHaveAttribute("aria-expanded", "false");
  // Without a language model there is no "Draft a reply".
  if (!process.env.E2E_LLM_PORT) await expect(suggestions.getByRole("button", { name: "Draft a reply" })).toHaveCount(0);
  // Collapsed: one line, no passage text taking the thread's room.
  await expect(suggestions).not.toContainText("entregamos em todo o país");
  const box = await suggestions.boundingBox();
  expect(box?.height ?? 999).toBeLessThan(56);
  expect((box?.x ?? 0) + (box?.width ?? 999)).toBeLessThanOrEqual(phoneViewport.width);
  await page.screenshot({ path: shot("answers-collapsed-phone") });

  // One tap inserts the top answer, in Portuguese only.
  await suggestions.getByRole("button", { name: /Insert the top answer/ }).click();
  const reply = page.locator("#composer-text");
  await expect(reply).toHaveValue(/entregamos em todo o país em 3 a 5 dias úteis/);
  await expect(reply).not.toHaveValue(/llegamos|we deliver/);
  await page.screenshot({ path: shot("answers-inserted-phone") });

  // Opened, each answer is in Portuguese; "Not helpful" hides one for this conversation, also after a reload.
  await line.click();
  await expect(line).toHaveAttribute("aria-expanded", "true");
  const list = suggestions.getByRole("listitem");
  await expect(list.first()).toContainText("entregamos em todo o país");
  for (const text of await list.allTextContents()) expect(text).not.toMatch(/llegamos|we deliver/);
  await page.screenshot({ path: shot("answers-open-phone") });
  const count = await list.count();
  expect(count).toBeGreaterThanOrEqual(2);
  await list.first().getByRole("button", { name: /Not helpful/ }).click();
  await expect(list).toHaveCount(count - 1);
  await expect(suggestions).not.toContainText("entregamos em todo o país");

  // Hide stays hidden when the customer writes again.
  await line.click();
  await expect(line).toHaveAttribute("aria-expanded", "false");
  await customerWrites(request, token, from, "Ana Sousa", "E as trocas, como funcionam? Quanto custa o envio da troca?");
  await expect(page.getByRole("log", { name: "Messages with Ana Sousa" })).toContainText("E as trocas");
  await expect(suggestions.getByRole("button", { name: /answers? from your documents/ })).toHaveAttribute("aria-expanded", "false");
  await page.waitForTimeout(1500);
  await expect(suggestions.getByRole("button", { name: /answers? from your documents/ })).toHaveAttribute("aria-expanded", "false");

  // The conversation stays open across a reload.
  await page.reload();
  const again = page.getByRole("region", { name: "From your documents" });
  await again.getByRole("button", { name: /answers? from your documents/ }).click();
  await expect(again.getByRole("listitem").first()).toBeVisible();
  await expect(again).not.toContainText("entregamos em todo o país");
  await page.screenshot({ path: shot("answers-after-reload-phone") });
});

// Needs the server started with a language model: run with E2E_LLM_PORT=3801
// LLM_BASE_URL=http://127.0.0.1:3801/v1 LLM_API_KEY=sk-e2e LLM_MODEL=e2e-model (this test serves it).
test("Draft a reply writes an answer from the documents with its sources, and says so when there is none", async ({ page, request }) => {
  test.skip(!process.env.E2E_LLM_PORT, "needs E2E_LLM_PORT and LLM_* for the server");
  test.setTimeout(90_000);
  const llm = await startFakeLlm({ port: Number(process.env.E2E_LLM_PORT) });
  try {
    await page.setViewportSize(phoneViewport);
    const token = await adminApiToken(request);
    const profile = await request.put("/v1/config/business-profile", {
      headers: { authorization: `Bearer ${token}` },
      data: { name: "Vivero Sol", description: knowledge, language: "es", hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } },
    });
    expect(profile.status()).toBe(200);
    await customerWrites(request, token, `3519${String(Date.now()).slice(-8)}`, "Rui Costa", "Quanto custa o envio para Lisboa?");
    await signInAsOwner(page);
    await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: /Rui Costa/ }).click();
    const suggestions = page.getByRole("region", { name: "From your documents" });

    llm.assistantAnswer("Olá! O envio custa 9,90 euros e é grátis acima de 50 euros.", [1]);
    await suggestions.getByRole("button", { name: "Draft a reply" }).click();
    await expect(page.locator("#composer-text")).toHaveValue("Olá! O envio custa 9,90 euros e é grátis acima de 50 euros.");
    await expect(suggestions.getByRole("status")).toContainText("Sources: Business profile");
    await page.screenshot({ path: shot("answers-draft-phone") });

    await page.locator("#composer-text").fill("");
    llm.assistantAnswer("O envio custa 4,99 euros.", [1]);
    await suggestions.getByRole("button", { name: "Draft a reply" }).click();
    await expect(suggestions.getByRole("status")).toContainText("write the reply yourself");
    await expect(page.locator("#composer-text")).toHaveValue("");
  } finally {
    await llm.close();
  }
});

test("Settings → Answer assistant says the assistant is off until a language model is configured", async ({ page }) => {
  test.skip(Boolean(process.env.E2E_LLM_PORT), "runs without a language model");
  await signInAsOwner(page);
  await page.goto("/settings/assistant");
  await expect(page.getByRole("heading", { name: "Answer assistant" })).toBeVisible();
  await expect(page.getByText("No language model is configured")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /Answer outside opening hours/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save assistant" })).toHaveCount(0);
});

test("Settings → Answer assistant: an admin turns on answering outside opening hours", async ({ page, request }) => {
  test.skip(!process.env.E2E_LLM_PORT, "needs E2E_LLM_PORT and LLM_* for the server");
  await page.setViewportSize(phoneViewport);
  await signInAsOwner(page);
  await page.goto("/settings/assistant");
  await page.getByRole("checkbox", { name: /Answer outside opening hours/ }).check();
  await page.getByLabel("Minimum match score").fill("2");
  await page.getByRole("button", { name: "Save assistant" }).click();
  await expect(page.getByText("Enter a number from 0 to 1")).toBeVisible();
  await page.getByLabel("Minimum match score").fill("0,2");
  await page.getByRole("button", { name: "Save assistant" }).click();
  await expect(page.getByText("Saved. Questions outside opening hours")).toBeVisible();
  await page.screenshot({ path: shot("assistant-settings-phone") });
  const token = await adminApiToken(request);
  const config = await request.get("/v1/config/assistant", { headers: { authorization: `Bearer ${token}` } });
  expect(await config.json()).toEqual({ answer_outside_hours: true, min_score: 0.2, available: true });
});
