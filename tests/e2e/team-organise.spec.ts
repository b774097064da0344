import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signIn } from "./helpers";

const phone = () => `1555${String(Date.now()).slice(-7)}`;

async function customerWrites(request: APIRequestContext, from: string, name: string, text: string) {
  const token = await adminApiToken(request);
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name, type: "text", text } });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; conversation_id: string };
}

async function openInbox(browser: Browser, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, firstAdmin.email, firstAdmin.password);
  await expect(page.getByRole("status", { name: "Live updates on" })).toBeVisible();
  return page;
}

const row = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("labels are managed in settings, put on a conversation from its header, and filter the list", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const vip = `VIP ${stamp}`;
  const page = await openInbox(browser);
  await page.goto("/settings/labels");
  await page.getByLabel("Name").fill(vip);
  await page.getByRole("button", { name: "Create label" }).click();
  await expect(page.getByRole("status")).toContainText(`Label “${vip}” created.`);
  // A second label with the same name (any case) is refused with a plain sentence.
  await page.getByLabel("Name").fill(vip.toLowerCase());
  await page.getByRole("button", { name: "Create label" }).click();
  await expect(page.getByText("A label with this name already exists.")).toBeVisible();
  await page.screenshot({ path: shot("labels-settings-desktop") });

  const labeled = `Lara Etiqueta ${stamp}`;
  const plain = `Pablo Sinetiqueta ${stamp}`;
  await customerWrites(request, phone(), labeled, "Quiero un ficus");
  await customerWrites(request, phone(), plain, "Hola");
  await page.goto("/inbox");
  await row(page, labeled).click();
  await page.getByRole("button", { name: "Labels" }).click();
  await page.getByRole("dialog", { name: "Labels" }).getByLabel(vip).check();
  await expect(page.getByRole("region", { name: "Conversation", exact: true }).getByTestId("label-chip").filter({ hasText: vip })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(row(page, labeled).getByTestId("label-chip")).toHaveText(vip);

  await page.getByLabel("Label", { exact: true }).selectOption({ label: vip });
  await expect(row(page, labeled)).toBeVisible();
  await expect(row(page, plain)).toHaveCount(0);
  await page.screenshot({ path: shot("label-filter-desktop") });
  await page.getByLabel("Label", { exact: true }).selectOption({ label: "All labels" });
  await expect(row(page, plain)).toBeVisible();
  await page.context().close();
});

test("a snoozed conversation leaves the list and comes back when the customer writes", async ({ browser, request }) => {
  const name = `Sonia Siesta ${Date.now() % 100000}`;
  const number = phone();
  await customerWrites(request, number, name, "¿Tienen macetas grandes?");
  const page = await openInbox(browser);
  await row(page, name).click();
  await page.getByRole("button", { name: "Snooze", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Snooze until" })).toBeVisible();
  await page.screenshot({ path: shot("snooze-menu-desktop") });
  await page.getByRole("button", { name: /^In 1 hour/ }).click();
  await expect(page.getByTestId("conversation-status")).toHaveText("Snoozed");

  // Out of All; listed under Snoozed.
  await page.getByRole("tab", { name: "Snoozed" }).click();
  await expect(row(page, name)).toBeVisible();
  await page.getByRole("tab", { name: "All" }).click();
  await expect(row(page, name)).toHaveCount(0);

  // The customer writes again: it wakes at once and returns to All, live.
  await customerWrites(request, number, name, "¿Hola? Sigo esperando");
  await expect(row(page, name)).toBeVisible({ timeout: 10_000 });
  await row(page, name).click();
  await expect(page.getByTestId("conversation-status")).toHaveText("Open");
  await page.context().close();

  // On a phone the header keeps its actions and the menu stays on screen.
  const phonePage = await openInbox(browser, { width: 390, height: 844 });
  await row(phonePage, name).click();
  const header = phonePage.getByRole("region", { name: "Conversation", exact: true }).locator("header");
  // On a phone the header's actions live in its ⋯ menu.
  await phonePage.getByRole("button", { name: "Conversation actions" }).click();
  await phonePage.getByRole("button", { name: "Snooze", exact: true }).click();
  const menu = phonePage.getByRole("dialog", { name: "Snooze until" });
  await expect(menu).toBeVisible();
  const box = (await menu.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  await phonePage.screenshot({ path: shot("snooze-menu-phone") });
  await phonePage.keyboard.press("Escape");
  await phonePage.screenshot({ path: shot("conversation-header-phone") });
  console.log(`conversation header on a phone: ${Math.round((await header.boundingBox())!.height)} px`);
  await phonePage.context().close();
});

test("search finds a customer by their name typed without accents, and a message by a word, highlighted", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const name = `Ágata Núñez${stamp}`;
  await customerWrites(request, phone(), name, `¿Me la entregá el sábado? Pedido ${stamp}`);
  const page = await openInbox(browser);
  await page.getByLabel("Search names, numbers and conversation text").fill(`agata nunez${stamp}`);
  const results = page.getByRole("list", { name: "Search results" });
  const hit = results.getByRole("button", { name: new RegExp(`Ágata Núñez${stamp}`) });
  await expect(hit).toBeVisible();
  await expect(hit.locator("mark").first()).toHaveText("Ágata");

  await page.getByLabel("Search names, numbers and conversation text").fill(`entrega ${stamp}`);
  const byText = results.getByRole("button", { name: new RegExp(`Ágata Núñez${stamp}`) });
  await expect(byText.locator("mark")).toHaveText(["entregá", String(stamp)]);
  await page.screenshot({ path: shot("search-desktop") });
  await byText.click();
  await expect(page.getByRole("log", { name: `Messages with ${name}` })).toContainText("entregá el sábado");
  await page.context().close();

  const phonePage = await openInbox(browser, { width: 390, height: 844 });
  await phonePage.getByLabel("Search names, numbers and conversation text").fill(`nunez${stamp}`);
  await expect(phonePage.getByRole("list", { name: "Search results" }).getByRole("button", { name: new RegExp(`Núñez${stamp}`) })).toBeVisible();
  await phonePage.screenshot({ path: shot("search-phone") });
  const width = await phonePage.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await phonePage.context().close();
});

test("the contacts page lists, finds and edits a contact, and blocking shows everywhere", async ({ browser, request }) => {
  const stamp = Date.now() % 100000;
  const name = `Carla Contacto ${stamp}`;
  await customerWrites(request, phone(), name, "Hola");
  const page = await openInbox(browser);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contacts" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await page.getByLabel("Search contacts").fill(`contacto ${stamp}`);
  const link = page.getByRole("list", { name: "Contacts" }).getByRole("link", { name: new RegExp(name) });
  await expect(link).toBeVisible();
  await page.screenshot({ path: shot("contacts-desktop") });
  await link.click();
  await expect(page.getByRole("heading", { name })).toBeVisible();

  await page.getByLabel("Name").fill(`Carla C. ${stamp}`);
  await page.getByLabel("Email").fill("carla@example.com");
  await page.getByLabel("Notes").fill("Prefers deliveries in the morning");
  await page.getByRole("button", { name: "+ Add attribute" }).click();
  await page.getByLabel("Attribute 1 name").fill("plan");
  await page.getByLabel("Attribute 1 value").fill("gold");
  await page.getByRole("button", { name: "Save contact" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await page.getByRole("button", { name: "Block" }).click();
  await expect(page.getByTestId("contact-blocked")).toBeVisible();
  await page.screenshot({ path: shot("contact-page-desktop"), fullPage: true });

  // The same contact, edited, in the conversation's details pane.
  await page.reload();
  await expect(page.getByLabel("Email")).toHaveValue("carla@example.com");
  await expect(page.getByLabel("Attribute 1 value")).toHaveValue("gold");
  await page.goto("/inbox");
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(`Carla C. ${stamp}`) }).click();
  await page.getByText("Edit contact").click();
  const details = page.getByRole("complementary", { name: "Details" });
  await expect(details.getByLabel("Notes")).toHaveValue("Prefers deliveries in the morning");
  await expect(details.getByTestId("contact-blocked")).toBeVisible();
  await details.getByRole("button", { name: "Unblock" }).click();
  await expect(details.getByTestId("contact-blocked")).toHaveCount(0);
  await page.screenshot({ path: shot("details-contact-desktop") });
  await page.context().close();

  const phonePage = await openInbox(browser, { width: 390, height: 844 });
  await phonePage.goto("/contacts");
  await phonePage.getByLabel("Search contacts").fill(`${stamp}`);
  await expect(phonePage.getByRole("list", { name: "Contacts" }).getByRole("link", { name: new RegExp(`Carla C. ${stamp}`) })).toBeVisible();
  await phonePage.screenshot({ path: shot("contacts-phone") });
  expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await phonePage.getByRole("list", { name: "Contacts" }).getByRole("link").first().click();
  await phonePage.screenshot({ path: shot("contact-page-phone"), fullPage: true });
  expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await phonePage.context().close();
});
