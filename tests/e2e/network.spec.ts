import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

/** A real WebP sticker drawn by the browser itself (a green smiley). */
async function drawSticker(page: Page): Promise<string> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 96;
    canvas.height = 96;
    const g = canvas.getContext("2d")!;
    g.fillStyle = "#22c55e";
    g.beginPath();
    g.arc(48, 48, 44, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = "#fff";
    for (const x of [34, 62]) {
      g.beginPath();
      g.arc(x, 38, 6, 0, Math.PI * 2);
      g.fill();
    }
    g.strokeStyle = "#fff";
    g.lineWidth = 5;
    g.beginPath();
    g.arc(48, 52, 22, 0.2 * Math.PI, 0.8 * Math.PI);
    g.stroke();
    return canvas.toDataURL("image/webp");
  });
  expect(dataUrl.startsWith("data:image/webp;base64,")).toBe(true);
  return dataUrl.split(",")[1];
}

async function simulate(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; conversation_id: string };
}

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("a customer's location, sticker, contacts, replies, reaction and an unknown kind all show in the inbox, and the composer answers in kind", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const customer = `Lucía Kinds ${Date.now() % 100000}`;
  const from = `3491${String(Date.now()).slice(-7)}`;
  const first = await simulate(request, token, { from, name: customer, type: "text", text: "Hola! Where is your shop?" });
  await simulate(request, token, { from, type: "location", location: { latitude: 40.4168, longitude: -3.7038, name: "Puerta del Sol", address: "Plaza de la Puerta del Sol, Madrid" } });
  await simulate(request, token, { from, type: "sticker", media: { mime_type: "image/webp", data: await drawSticker(page) } });
  await simulate(request, token, { from, type: "contacts", contacts: [{ name: "Pablo Jardinero", phones: ["+34600111222"], emails: ["pablo@example.com"] }] });
  await simulate(request, token, { from, type: "interactive", interactive: { type: "button_reply", id: "tomorrow", title: "Tomorrow" } });
  await simulate(request, token, { from, type: "button", button: { text: "Stop promotions", payload: "STOP" } });
  await simulate(request, token, { from, type: "unsupported", unsupported: { network_type: "order" } });
  await simulate(request, token, { from, type: "text", text: "I meant this question", context: { message_id: first.id } });
  await simulate(request, token, { from, type: "reaction", reaction: { message_id: first.id, emoji: "❤️" } });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsOwner(page);
  await conversationRow(page, customer).click();
  const log = page.getByRole("log", { name: `Messages with ${customer}` });
  await expect(log.getByTestId("location-card")).toContainText("Puerta del Sol");
  await expect(log.getByTestId("location-card")).toHaveAttribute("href", /openstreetmap\.org\/\?mlat=40\.4168&mlon=-3\.7038/);
  await expect(log.getByTestId("sticker")).toBeVisible();
  await expect.poll(() => log.getByTestId("sticker").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
  await expect(log.getByTestId("contact-card")).toContainText("Pablo Jardinero");
  await expect(log.getByTestId("interactive-reply")).toContainText("Tomorrow");
  await expect(log.getByTestId("button-reply")).toContainText("Stop promotions");
  await expect(log.getByTestId("unsupported")).toHaveText("Unsupported message (order)");
  await expect(log.getByTestId("quote")).toContainText("Hola! Where is your shop?");
  // The reaction shows on the message it reacts to, not as a bubble of its own.
  const firstBubble = log.locator(`[data-message-id="${first.id}"]`);
  await expect(firstBubble.getByTestId("reactions")).toContainText("❤️");
  await expect(log.locator('[data-type="reaction"]')).toHaveCount(0);
  await expect(page.getByTestId("window-left")).toContainText("left to reply freely");
  await page.screenshot({ path: shot("network-kinds-desktop"), fullPage: true });

  // Reply to the first message (quoted), react to it, send a location and reply buttons.
  await firstBubble.hover();
  await firstBubble.getByRole("button", { name: "Quote" }).click();
  await expect(page.getByTestId("reply-preview")).toContainText("Hola! Where is your shop?");
  await page.getByLabel("Reply").fill("We are right by Sol!");
  await page.keyboard.press("Enter");
  const reply = log.locator('[data-direction="outbound"]', { hasText: "We are right by Sol!" });
  await expect(reply.getByTestId("quote")).toContainText("Hola! Where is your shop?");
  await expect(page.getByTestId("reply-preview")).toHaveCount(0);

  await firstBubble.hover();
  await firstBubble.getByRole("button", { name: "Add a reaction" }).click();
  await page.getByRole("menuitem", { name: "React 👍" }).click();
  await expect(firstBubble.getByTestId("reactions")).toContainText("👍");

  await page.getByRole("button", { name: "Location", exact: true }).click();
  const locationDialog = page.getByRole("dialog", { name: "Send a location" });
  await locationDialog.getByLabel("Latitude").fill("95");
  await locationDialog.getByLabel("Longitude").fill("-3.70");
  await locationDialog.getByRole("button", { name: "Send location" }).click();
  await expect(locationDialog.getByText("Enter a latitude from -90 to 90.")).toBeVisible();
  await locationDialog.getByLabel("Latitude").fill("40.4153");
  await locationDialog.getByLabel("Place name (optional)").fill("Green Leaf Plants");
  await locationDialog.getByRole("button", { name: "Send location" }).click();
  await expect(log.locator('[data-direction="outbound"]').getByTestId("location-card")).toContainText("Green Leaf Plants");

  await page.getByRole("button", { name: "Buttons", exact: true }).click();
  const buttonsDialog = page.getByRole("dialog", { name: "Ask with buttons" });
  await buttonsDialog.getByLabel("Question").fill("Shall we deliver tomorrow?");
  await buttonsDialog.getByLabel("Answer 1").fill("Yes");
  await buttonsDialog.getByLabel("Answer 2 (optional)").fill("No, Friday");
  await buttonsDialog.getByRole("button", { name: "Send buttons" }).click();
  await expect(log.getByTestId("interactive-message")).toContainText("No, Friday");
  await page.screenshot({ path: shot("network-composer-desktop"), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(log.getByTestId("location-card").first()).toBeVisible();
  await page.screenshot({ path: shot("network-kinds-phone"), fullPage: true });
});

test("a template created in settings is approved by the sandbox and starts a new conversation from the inbox", async ({ page }) => {
  const name = `pickup_ready_${Date.now() % 100000}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsOwner(page);
  await page.goto("/settings/templates");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Body").fill("Hi {{1}}, your order is ready for pick-up.");
  await page.getByRole("button", { name: "Submit for review" }).click();
  const row = page.getByTestId("template-row").filter({ hasText: name });
  await expect(row.getByTestId("template-status")).toHaveText("In review");
  await expect(row.getByTestId("template-status")).toHaveText("Approved", { timeout: 15_000 });
  await page.screenshot({ path: shot("network-templates-desktop"), fullPage: true });

  await page.goto("/inbox");
  await page.getByRole("button", { name: "New conversation" }).click();
  const dialog = page.getByRole("dialog", { name: "New conversation" });
  await dialog.getByLabel("Number to write to").fill("14155550");
  await dialog.getByLabel("Template", { exact: true }).selectOption({ label: `${name} (en_US)` });
  await dialog.getByLabel("Value for {{1}}").fill("Marta");
  await expect(dialog.getByTestId("template-preview")).toContainText("Hi Marta, your order is ready for pick-up.");
  await dialog.getByRole("button", { name: "Send template" }).click();
  await expect(dialog.getByText(/E\.164/).first()).toBeVisible();
  const number = `1415555${String(Date.now()).slice(-4)}`;
  await dialog.getByLabel("Number to write to").fill(`+${number}`);
  await dialog.getByRole("button", { name: "Send template" }).click();
  const log = page.getByRole("log", { name: `Messages with +${number}` });
  await expect(log.locator('[data-type="template"]')).toContainText("Hi Marta, your order is ready for pick-up.");
  await expect(log.getByTestId("template-tag")).toContainText(name);
  await page.screenshot({ path: shot("network-new-conversation-desktop"), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings/templates");
  await expect(page.getByTestId("template-row").filter({ hasText: name })).toBeVisible();
  await page.screenshot({ path: shot("network-templates-phone"), fullPage: true });
});
