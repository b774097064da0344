import { expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// A 1×1 PNG: what a template's image header shows.
const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("the template picker shows the category and the estimate for the contact's country; the bubble shows header, footer and buttons; spend appears in reports", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const auth = { authorization: `Bearer ${token}` };
  expect((await request.put("/v1/config/pricing", { headers: auth, data: { currency: "EUR", csv: "country_code,category,price\n34,marketing,0.0572\n*,marketing,0.05" } })).status()).toBe(200);
  const name = `spring_rich_${Date.now() % 100000}`;
  const created = await request.post("/v1/templates", {
    headers: auth,
    data: {
      name,
      language: "en_US",
      category: "MARKETING",
      components: {
        header: { format: "IMAGE", media: { mime_type: "image/png", data: PNG_1PX, filename: "spring.png" } },
        body: { text: "Hi {{1}}, our spring sale has started." },
        footer: { text: "Reply STOP to opt out" },
        buttons: [
          { type: "URL", text: "See the offer", url: "https://shop.example/offer/{{1}}", example: "A1" },
          { type: "COPY_CODE", example: "SPRING10" },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;
  await expect.poll(async () => (await (await request.get(`/v1/templates/${id}`, { headers: auth })).json()).status, { timeout: 15_000 }).toBe("APPROVED");

  const customer = `Nuria Rich ${Date.now() % 100000}`;
  const from = `3461${String(Date.now()).slice(-7)}`;
  const inbound = await request.post("/api/sandbox/inbound", { headers: auth, data: { from, name: customer, type: "text", text: "Any offers this week?" } });
  expect(inbound.status()).toBe(201);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsOwner(page);
  await conversationRow(page, customer).click();
  await page.getByRole("button", { name: "Template", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send a template" });
  await dialog.getByLabel("Template", { exact: true }).selectOption({ label: `${name} (en_US)` });
  await expect(dialog.getByTestId("template-estimate")).toHaveText("Marketing · ≈ 0.06 EUR");
  await dialog.getByLabel("Value for {{1}}").fill("Nuria");
  await expect(dialog.getByLabel("Code to copy")).toHaveValue("SPRING10");
  await dialog.getByLabel("Code to copy").fill("NURIA15");
  await expect(dialog.getByTestId("template-preview")).toContainText("Hi Nuria, our spring sale has started.");
  await expect(dialog.getByTestId("template-preview")).toContainText("Copy code NURIA15");
  await page.screenshot({ path: shot("rich-template-picker-desktop") });
  await dialog.getByRole("button", { name: "Send template" }).click();

  const log = page.getByRole("log", { name: `Messages with ${customer}` });
  const bubble = log.locator('[data-type="template"]').last();
  await expect(bubble).toContainText("Hi Nuria, our spring sale has started.");
  await expect(bubble.getByTestId("template-header")).toBeVisible();
  await expect(bubble.getByTestId("template-header")).toHaveJSProperty("naturalWidth", 1);
  await expect(bubble.getByTestId("template-extras")).toContainText("Reply STOP to opt out");
  await expect(bubble.getByRole("list", { name: "Template buttons" }).getByRole("listitem")).toHaveText(["↗ See the offer", "Copy codeNURIA15"]);
  await page.screenshot({ path: shot("rich-template-bubble-desktop") });

  // The sandbox reports the send billable as marketing: the month's spend shows it.
  const spend = async () => (await (await request.get(`/v1/reports/spend?from=${new Date(Date.now() - 86_400_000).toISOString()}`, { headers: auth })).json()).months.length;
  await expect.poll(spend, { timeout: 15_000 }).toBeGreaterThan(0);
  await page.goto("/reports");
  await expect(page.getByTestId("spend-report")).toContainText("Marketing");
  await expect(page.getByTestId("spend-total")).toContainText("EUR");
  await page.screenshot({ path: shot("rich-template-spend-desktop"), fullPage: true });
});

test("settings: a CSV price table with a bad line is refused naming the line; a good one replaces the table", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsOwner(page);
  await page.goto("/settings/templates");
  const upload = (csv: string) => page.getByLabel("CSV file").setInputFiles({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await upload("country_code,category,price\n34,marketing,0.06\n49,gifts,0.1\n");
  await page.getByRole("button", { name: "Replace the table" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "line 3" })).toBeVisible();
  await upload("country_code,category,price\n34,marketing,0.06\n49,marketing,0.12\n*,marketing,0.05\n");
  await page.getByLabel("Currency").fill("EUR");
  await page.getByRole("button", { name: "Replace the table" }).click();
  await expect(page.getByText("The price table now has 3 prices in EUR.")).toBeVisible();
  await expect(page.getByTestId("pricing-summary")).toContainText("Your table: 3 prices for 3 country codes in EUR");
  await page.screenshot({ path: shot("rich-template-prices-desktop"), fullPage: true });
});
