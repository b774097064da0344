import { expect, test } from "@playwright/test";
import { makePdf } from "../support/pdf";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

test("an agent answers “¿hacen envíos al interior?” with one click from the business's shipping PDF", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.goto("/settings/profile");
  await expect(page.getByRole("list", { name: "What the documents feed" })).toContainText("Suggested answers");

  const pdf = makePdf([
    "Vivero Sol: plantas de interior y exterior.",
    "Envios al interior: llegamos a todas las provincias en 3 a 5 dias habiles, gratis desde 50.000 pesos.",
  ]);
  await page.locator("#document-upload").setInputFiles({ name: "envios.pdf", mimeType: "application/pdf", buffer: pdf });
  const row = page.getByRole("row", { name: /envios\.pdf/ });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "View extracted text" }).click();
  await expect(page.getByLabel("Extracted text of envios.pdf")).toContainText("llegamos a todas las provincias");
  await page.screenshot({ path: shot("documents-extracted-text"), fullPage: true });

  const token = await adminApiToken(request);
  const phone = `54911${String(Date.now()).slice(-8)}`;
  const inbound = await request.post("/api/sandbox/inbound", {
    headers: { authorization: `Bearer ${token}` },
    data: { from: phone, name: "Lucía Gómez", type: "text", text: "Hola! ¿hacen envíos al interior?" },
  });
  expect(inbound.status()).toBe(201);

  await page.goto("/inbox");
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: /Lucía Gómez/ }).click();
  const suggestions = page.getByRole("region", { name: "From your documents" });
  // Collapsed to one line until the agent opens it.
  await suggestions.getByRole("button", { name: /answers? from your documents/ }).click();
  await expect(suggestions).toContainText("llegamos a todas las provincias");
  await expect(suggestions).toContainText("envios.pdf, page 2");
  await page.screenshot({ path: shot("suggestions-desktop") });
  await suggestions.getByRole("button", { name: /Insert the passage from envios\.pdf/ }).first().click();
  const reply = page.locator("#composer-text");
  await expect(reply).toHaveValue(/Envios al interior: llegamos a todas las provincias/);
  await expect(reply).toBeFocused();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("log", { name: "Messages with Lucía Gómez" })).toContainText("gratis desde 50.000 pesos");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.screenshot({ path: shot("suggestions-phone") });
});
