import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

async function simulate(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; conversation_id: string; from: string };
}

const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("a customer known only by a username is shown by it, found by it, and answered (reply and reaction) like any other", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const username = `@fern.fan${Date.now() % 100000}`;
  const first = await simulate(request, token, { username, type: "text", text: "Do you ship ferns?" });
  expect(first.from).toMatch(/^US\./);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsOwner(page);
  await conversationRow(page, username).click();
  const header = page.getByTestId("conversation-header");
  await expect(header).toContainText(username);
  const log = page.getByRole("log", { name: `Messages with ${username}` });
  await expect(log).toContainText("Do you ship ferns?");

  await page.getByLabel("Reply").fill("Yes, all over Europe.");
  await page.keyboard.press("Enter");
  const reply = log.locator('[data-direction="outbound"]', { hasText: "Yes, all over Europe." });
  await expect(reply).toBeVisible();
  // Sent to the customer's business-scoped user id, as any reply.
  await expect(reply.locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]')).toBeVisible();

  const bubble = log.locator(`[data-message-id="${first.id}"]`);
  await bubble.hover();
  await bubble.getByRole("button", { name: "Add a reaction" }).click();
  await page.getByRole("menuitem", { name: "React 👍" }).click();
  await expect(bubble.getByTestId("reactions")).toContainText("👍");
  await page.screenshot({ path: shot("username-customer"), fullPage: true });

  // The API answers the search by username with this conversation.
  const search = await request.get(`/v1/search?q=${encodeURIComponent(username.slice(1))}`, { headers: { authorization: `Bearer ${token}` } });
  expect(search.status()).toBe(200);
  const found = (await search.json()) as { data: { conversation: { id: string }; match: { field: string } }[] };
  expect(found.data.map((hit) => [hit.conversation.id, hit.match.field])).toContainEqual([first.conversation_id, "username"]);
});

test("Settings → Inbox turns read receipts and the typing indicator off and on", async ({ page, request }) => {
  const token = await adminApiToken(request);
  await signInAsOwner(page);
  await page.goto("/settings/inbox");
  const receipts = page.getByRole("switch", { name: "Send read receipts" });
  const typing = page.getByRole("switch", { name: "Show customers when someone is typing" });
  await expect(receipts).toBeChecked();
  await expect(typing).toBeChecked();
  await receipts.uncheck();
  await expect(page.getByText("Customers no longer see when their messages are read.")).toBeVisible();
  await typing.uncheck();
  await expect(page.getByText("Customers no longer see when someone is typing.")).toBeVisible();
  const read = async () => (await (await request.get("/v1/config/inbox", { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, boolean>;
  expect(await read()).toMatchObject({ send_read_receipts: false, send_typing_indicator: false });
  await page.reload();
  await expect(receipts).not.toBeChecked();
  await receipts.check();
  await typing.check();
  await expect(page.getByText("Customers now see when someone is typing.")).toBeVisible();
  expect(await read()).toMatchObject({ send_read_receipts: true, send_typing_indicator: true });
});
