import { expect, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// What a phone downloads to show the inbox, and that what it leaves for later still works.

const phone = { width: 390, height: 844 };
// Texts only an ICU message parser carries (its error names); the browser formats compiled messages.
const ICU_PARSER_MARKERS = ["EXPECT_ARGUMENT_CLOSING_BRACE", "INVALID_PLURAL_ARGUMENT_SELECTOR"];

test("on a phone the inbox loads no ICU parser, and opens its forms and panels on first tap", async ({ browser, request }) => {
  const token = await adminApiToken(request);
  const inbound = await request.post("/api/sandbox/inbound", {
    headers: { authorization: `Bearer ${token}` },
    data: { from: "447700900456", name: "Lena Okafor", type: "text", text: "Do you ship the fiddle-leaf fig to Leeds?" },
  });
  expect(inbound.status()).toBe(201);

  const context = await browser.newContext({ viewport: phone, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const scripts: { url: string; body: Promise<string> }[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push({ url: response.url(), body: response.text().catch(() => "") });
  });
  await signInAsOwner(page);
  await page.goto("/inbox", { waitUntil: "load" });
  await expect(page.getByRole("region", { name: "Conversations" })).toContainText("Lena Okafor");
  const firstLoad = await Promise.all(scripts.map(async (script) => ({ url: script.url, body: await script.body })));
  expect(firstLoad.length).toBeGreaterThan(0);
  const withParser = firstLoad.filter((script) => ICU_PARSER_MARKERS.some((marker) => script.body.includes(marker))).map((script) => script.url);
  expect(withParser).toEqual([]);

  // Search results, loaded once a query is typed.
  await page.getByLabel("Search names, numbers and conversation text").fill("fiddle-leaf");
  await expect(page.getByText("Do you ship the fiddle-leaf fig to Leeds?").first()).toBeVisible();
  await page.getByLabel("Search names, numbers and conversation text").fill("");

  // Loaded on first use: each opens from its button.
  await page.getByRole("button", { name: "New conversation" }).click();
  const newConversation = page.getByRole("dialog", { name: "New conversation" });
  await expect(newConversation).toBeVisible();
  await expect(newConversation.getByLabel("Number to write to")).toBeVisible();
  await page.screenshot({ path: shot("inbox-phone-new-conversation-lazy") });
  await newConversation.getByRole("button", { name: "Cancel" }).click();
  await expect(newConversation).toBeHidden();
  await page.getByRole("button", { name: "New conversation" }).click();
  await expect(newConversation).toBeVisible();
  await newConversation.getByRole("button", { name: "Cancel" }).click();

  await page.getByTestId("notifications-bell").click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toBeVisible();
  await page.getByTestId("notifications-bell").click();

  await page.getByRole("button", { name: "Simulate customer" }).click();
  await expect(page.getByRole("dialog", { name: "Simulate a customer" })).toBeVisible();
  await page.screenshot({ path: shot("inbox-phone-simulate-lazy") });
  await context.close();
});
