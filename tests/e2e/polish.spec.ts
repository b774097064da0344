import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { adminApiToken, signInAsOwner } from "./helpers";

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The business profile says where the shop delivers, as a Portuguese shop's would. */
async function mentionLisbonInProfile(request: APIRequestContext) {
  const token = await adminApiToken(request);
  const current = await (await request.get("/v1/config/business-profile", { headers: auth(token) })).json();
  if (String(current.description).includes("Lisboa")) return;
  const res = await request.put("/v1/config/business-profile", {
    headers: auth(token),
    data: { name: current.name, description: `${current.description} Entregamos em Lisboa e no Porto.`.trim(), hours: current.hours, auto_reply: current.auto_reply },
  });
  expect(res.status()).toBe(200);
}

async function portugueseCustomer(request: APIRequestContext) {
  const token = await adminApiToken(request);
  const from = `3519${String(Date.now() % 100_000_000).padStart(8, "0")}`;
  const res = await request.post("/api/sandbox/inbound", { headers: auth(token), data: { from, name: "Ana Souza", type: "text", text: "olá, vocês entregam em Lisboa? quanto custa o envio?" } });
  expect(res.status()).toBe(201);
  const body = await res.json();
  return (body.conversation_id ?? body.message?.conversation_id ?? body.conversation?.id) as string;
}

const preview = (page: Page) => page.getByRole("dialog", { name: "Polish the reply" }).locator("[aria-live=polite]");

test("an agent's hurried Portuguese comes back correct from the composer's Polish menu, under every style", async ({ page, request }) => {
  await mentionLisbonInProfile(request);
  const conversationId = await portugueseCustomer(request);
  await signInAsOwner(page);
  await page.goto(`/inbox/${conversationId}`);

  const draft = "oi ana sim entregamos em lisboa o envio e 9,90 e demora uns 3 a 5 dias uteis";
  await page.getByLabel("Reply").fill(draft);
  await page.getByRole("button", { name: "Polish" }).click();
  await expect(preview(page)).toHaveText("Oi Ana, sim, entregamos em Lisboa o envio é 9,90 e demora uns 3 a 5 dias úteis.", { timeout: 15_000 });

  // The tone frames the reply; it never brings back a mistake.
  await page.getByRole("radio", { name: "Explanatory" }).click();
  await expect(preview(page)).toContainText("Sim, entregamos em Lisboa o envio é 9,90 e demora uns 3 a 5 dias úteis.");
  await expect(preview(page)).not.toContainText("lisboa");
  await page.getByRole("radio", { name: "Concise" }).click();
  await expect(preview(page)).toContainText("Ana, sim, entregamos em Lisboa o envio é 9,90 e demora uns 3 a 5 dias úteis.");

  await page.getByRole("radio", { name: "Normal" }).click();
  await page.getByRole("button", { name: "Use this" }).click();
  await expect(page.getByLabel("Reply")).toHaveValue("Oi Ana, sim, entregamos em Lisboa o envio é 9,90 e demora uns 3 a 5 dias úteis.");
});

test("the built server spells with its Hunspell dictionaries once they are loaded, and answers before that", async ({ request }) => {
  const token = await adminApiToken(request);
  const polish = async () => {
    const res = await request.post("/v1/messages/polish", { headers: auth(token), data: { text: "the calathea is availabel untill friday", style: "normal", language: "en" } });
    expect(res.status()).toBe(200);
    return (await res.json()).text as string;
  };
  // Loading starts with the first polish; a polish before it ends comes back without spelling, never late.
  await expect.poll(polish, { timeout: 30_000 }).toBe("The calathea is available until Friday.");
});
