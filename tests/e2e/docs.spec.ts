import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { shot } from "./fixtures";
import { signInAsOwner } from "./helpers";

test("signed-out visitors of an API reference go to /login", async ({ page }) => {
  await page.goto("/docs/plant-store");
  await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2Fplant-store/);
});

test("API docs in the navigation explain the APIs and open both references", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.getByRole("link", { name: "API docs" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "API docs" })).toBeVisible();
  for (const section of ["Authentication", "Scopes", "Errors", "Pagination", "Webhooks"]) {
    await expect(page.getByRole("heading", { name: section })).toBeVisible();
  }
  await expect(page.getByLabel("Verifying a webhook signature in Node.js")).toContainText("x-service-signature");
  const axe = await new AxeBuilder({ page }).include("main").analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: shot("docs-index"), fullPage: true });

  for (const [name, url, document, title] of [
    ["Chorus API", /\/docs\/v1$/, "/v1/openapi.json", "Chorus API reference"],
    ["Plant Store API", /\/docs\/plant-store$/, "/plant-store/openapi.json", "Plant Store reference"],
  ] as const) {
    await page.goto("/docs");
    await page.getByRole("link", { name: `Open the ${name} reference` }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("link", { name: "OpenAPI 3.1 JSON" })).toHaveAttribute("href", document);
    const served = await request.get(document);
    expect(served.status()).toBe(200);
    expect((await served.json()).openapi).toBe("3.1.0");
  }
});

test("the Chorus API reference shows each operation with its scopes, body, answers, errors and a curl example", async ({ page }) => {
  // The reference is one long page of every operation: laying it out takes a while on a busy machine.
  test.setTimeout(150_000);
  await signInAsOwner(page);
  await page.goto("/docs/v1");
  await expect(page.getByRole("heading", { level: 1, name: "Chorus API reference" })).toBeVisible();

  // The contents lead to each operation.
  await page.getByRole("navigation", { name: "Reference contents" }).getByRole("link", { name: "Send a message" }).click();
  await expect(page).toHaveURL(/#op-sendmessage$/);
  const send = page.locator("#op-sendmessage");
  await expect(send.getByRole("heading", { name: "POST /v1/messages" })).toBeInViewport();
  await expect(send.getByRole("list", { name: "Required scopes:" })).toHaveText("messages:write");
  await expect(send.getByText("Idempotency-Key", { exact: true }).first()).toBeVisible();
  await expect(send.getByRole("link", { name: "SendMessage" })).toBeVisible();
  await expect(send.getByLabel("Example request (curl)")).toContainText("curl -X POST");
  await expect(send.getByLabel("Example request (curl)")).toContainText('"to": "15551234567"');
  await expect(send.getByRole("link", { name: "NotFound" })).toBeVisible();
  await page.screenshot({ path: shot("docs-v1-send-message") });

  // Nested fields open with the keyboard.
  const media = send.locator("details", { hasText: "fields of media" }).first();
  await media.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(media.locator("code.ref-name", { hasText: "mime_type" })).toBeVisible();
  await expect(media.locator("code.ref-name", { hasText: "caption" })).toBeVisible();

  // A $ref in an answer is resolved into its fields, with a link to the schema.
  const get = page.locator("#op-getconversation");
  await expect(get.getByRole("heading", { name: "GET /v1/conversations/{id}" })).toBeAttached();
  await expect(get.locator("code.ref-name", { hasText: "last_message_at" })).toBeAttached();

  // The copy button puts the curl example on the clipboard.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await send.getByRole("button", { name: "Copy curl for POST /v1/messages" }).click();
  await expect(send.getByRole("button", { name: "Copy curl for POST /v1/messages" })).toContainText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("/v1/messages");

  await page.locator("#webhooks").scrollIntoViewIfNeeded();
  await expect(page.getByRole("heading", { name: "POST message.received" })).toBeAttached();
  await expect(page.getByRole("heading", { name: "POST plant.created" })).toBeAttached();

  // Every kind of block the page is made of (the whole page takes axe half a minute).
  const axe = await new AxeBuilder({ page })
    .include("aside")
    .include("#introduction")
    .include("#tag-messages")
    .include("#webhook-event-message-received")
    .include("#responses")
    .include("#schema-message")
    .analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
});

test("the Plant Store reference works at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsOwner(page);
  await page.goto("/docs/plant-store");
  await expect(page.getByRole("heading", { level: 1, name: "Plant Store reference" })).toBeVisible();
  for (const heading of ["GET /plants", "POST /plants", "DELETE /plants/{id}", "POST /plant/webhook"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeAttached();
  }
  // The side contents are folded into a disclosure on a phone.
  await page.getByText("Contents", { exact: true }).click();
  await page.getByRole("navigation", { name: "Reference contents" }).getByRole("link", { name: "Add a plant" }).click();
  await expect(page.getByRole("heading", { name: "POST /plants" })).toBeInViewport();
  await expect(page.locator("#op-createplant").getByLabel("Example request (curl)")).toContainText("/plant-store/plants");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: shot("docs-plant-store-phone") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: shot("docs-plant-store"), fullPage: true });
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
});

test("paths of the plant store that do not exist answer its JSON Error, the bare prefix included", async ({ request }) => {
  for (const path of ["/plant-store", "/plant-store/pets"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(404);
    expect(res.headers()["content-type"], path).toContain("application/json");
    expect(await res.json(), path).toEqual({ error: 404, message: expect.any(String) });
  }
});
