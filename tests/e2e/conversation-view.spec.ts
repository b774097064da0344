import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };
const viewports = [
  ["desktop", desktop],
  ["phone", phone],
] as const;

const knowledge = [
  "Shipping: we deliver nationwide in 3 to 5 working days. Shipping costs 9.90 euros and is free on orders over 50 euros.",
  "Returns: plants can be returned within 30 days in their original pot.",
].join("\n\n");

let run = 0;
const nextPhone = () => `4479${String(Date.now()).slice(-6)}${String(run++ % 100).padStart(2, "0")}`;

async function customer(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; conversation_id: string };
}

/** A conversation of `n` earlier customer messages, already read, then a contact card and a shipping question, unread. */
async function threadEndingInQuestion(request: APIRequestContext, name: string, n = 30) {
  const token = await adminApiToken(request);
  const profile = await request.put("/v1/config/business-profile", {
    headers: { authorization: `Bearer ${token}` },
    // The shared account keeps its own name: other specs greet customers with it.
    data: { name: firstAdmin.accountName, description: knowledge, language: "en", hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } },
  });
  expect(profile.status()).toBe(200);
  const from = nextPhone();
  let conversationId = "";
  for (let i = 1; i <= n; i++) conversationId = (await customer(request, token, { from, name, type: "text", text: `Earlier message number ${i} about my order` })).conversation_id;
  // Someone read those: only what follows is new.
  expect((await request.post(`/api/inbox/conversations/${conversationId}/read`, { headers: { authorization: `Bearer ${token}` } })).status()).toBeLessThan(300);
  await customer(request, token, { from, type: "contacts", contacts: [{ name: "Pablo Jardinero", phones: ["+34600111222"] }] });
  const question = `Do you ship to Madrid, and how much does shipping cost? (${name})`;
  await customer(request, token, { from, type: "text", text: question });
  return { token, from, conversationId, question };
}

const thread = (page: Page, name: string) => page.getByRole("log", { name: `Messages with ${name}` });

/** Whether `item` is entirely inside the visible part of the scrolling thread. */
async function inView(item: Locator, log: Locator) {
  const [box, frame] = await Promise.all([item.boundingBox(), log.boundingBox()]);
  if (!box || !frame) return false;
  return box.y >= frame.y - 1 && box.y + box.height <= frame.y + frame.height + 1;
}

async function expectInView(item: Locator, log: Locator, what: string) {
  await expect.poll(() => inView(item, log), { message: `${what} is in view`, timeout: 10_000 }).toBe(true);
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const sizes = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth, body: document.body.scrollWidth };
  });
  expect(sizes.scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(sizes.client);
  expect(sizes.body, `${what} is wider than the screen`).toBeLessThanOrEqual(sizes.client);
}

async function openFromList(page: Page, name: string) {
  await page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) }).click();
}

for (const [device, viewport] of viewports) {
  test(`${device}: a conversation ending in a contact card and a question opens with the question in view while suggestions show`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const name = `Quinn Question ${device} ${Date.now() % 100000}`;
    const { question } = await threadEndingInQuestion(request, name);
    await page.setViewportSize(viewport);
    await signInAsOwner(page);
    await openFromList(page, name);
    const log = thread(page, name);
    const suggestions = page.getByRole("region", { name: "From your documents" });
    await expect(suggestions).toBeVisible();
    await expect(log.getByText(question)).toBeVisible();
    // Wait for the layout to settle (the suggestions line arriving after the messages).
    await page.waitForTimeout(500);
    await expectInView(log.getByText(question), log, "the customer's last question");
    // What was unread sits under "New messages".
    await expect(log.getByRole("separator", { name: "New messages" })).toBeVisible();
    await page.screenshot({ path: shot(`conversation-opens-at-newest-${device}`) });

    // The open takes one request for the thread (plus marking it read and the suggestions).
    await page.reload();
    await expect(log.getByText(question)).toBeVisible();
    await expectInView(log.getByText(question), log, "the question after a reload");
  });

  test(`${device}: the thread stays at the newest message as messages arrive, and shows "↓ N new" when scrolled up`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const name = `Pinned Pat ${device} ${Date.now() % 100000}`;
    const { token, from, question } = await threadEndingInQuestion(request, name);
    await page.setViewportSize(viewport);
    await signInAsOwner(page);
    await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "live", { timeout: 15_000 });
    await openFromList(page, name);
    const log = thread(page, name);
    await expectInView(log.getByText(question), log, "the question");

    await customer(request, token, { from, type: "text", text: "Also: do you have monstera in stock?" });
    await expectInView(log.getByText("do you have monstera in stock?"), log, "a message that just arrived");

    // Scrolled up to read: the thread stays put and counts what arrives.
    await log.evaluate((node) => node.scrollTo({ top: 0 }));
    await customer(request, token, { from, type: "text", text: "Hello?" });
    await customer(request, token, { from, type: "text", text: "Are you there?" });
    const jump = page.getByRole("button", { name: "↓ 2 new" });
    await expect(jump).toBeVisible();
    expect(await inView(log.getByText("Are you there?"), log)).toBe(false);
    expect(await log.evaluate((node) => node.scrollTop)).toBeLessThan(50);
    await page.screenshot({ path: shot(`conversation-new-below-${device}`) });
    await jump.click();
    await expectInView(log.getByText("Are you there?"), log, "the newest message after ↓ new");
    await expect(jump).toBeHidden();
  });
}

test("many unread messages: the thread opens at the first of them, under “New messages”", async ({ page, request }) => {
  test.setTimeout(90_000);
  const token = await adminApiToken(request);
  const name = `Una Unread ${Date.now() % 100000}`;
  const from = nextPhone();
  for (let i = 1; i <= 12; i++) await customer(request, token, { from, name, type: "text", text: `Read message ${i}` });
  const { conversation_id } = await customer(request, token, { from, type: "text", text: "Read message 13" });
  await request.post(`/api/inbox/conversations/${conversation_id}/read`, { headers: { authorization: `Bearer ${token}` } });
  for (let i = 1; i <= 30; i++) await customer(request, token, { from, type: "text", text: `Unread line ${i} of a long story` });
  await page.setViewportSize(desktop);
  await signInAsOwner(page);
  await openFromList(page, name);
  const log = thread(page, name);
  const divider = log.getByRole("separator", { name: "New messages" });
  await expect(divider).toBeVisible();
  await expectInView(log.getByText("Unread line 1 of a long story", { exact: true }), log, "the first unread message");
  await expectInView(divider, log, "the New messages divider");
  expect(await inView(log.getByText("Unread line 30 of a long story"), log)).toBe(false);
  await page.screenshot({ path: shot("conversation-opens-at-first-unread") });
});

test("phone: the header is one row with a ⋯ menu holding every action, the reply box one row, the thread most of the screen", async ({ page, request }) => {
  test.setTimeout(90_000);
  const name = `Phoebe Phone ${Date.now() % 100000}`;
  const { conversationId } = await threadEndingInQuestion(request, name, 5);
  await page.setViewportSize(phone);
  await signInAsOwner(page);
  await expectNoSidewaysScroll(page, "the inbox list");
  await openFromList(page, name);
  await expect(page).toHaveURL(new RegExp(`/inbox/${conversationId}$`));
  const header = page.getByTestId("conversation-header");
  await expect(header).toContainText(name);
  await expect(header.getByTestId("conversation-status")).toHaveText("Open");
  await page.waitForTimeout(300);

  // One row: back, name, status and ⋯, none running off the screen.
  const headerBox = (await header.boundingBox())!;
  expect(headerBox.height).toBeLessThanOrEqual(64);
  for (const control of [page.getByRole("button", { name: "Back to conversations" }), page.getByRole("button", { name: "Conversation actions" })]) {
    const box = (await control.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
    expect(Math.abs(box.y + box.height / 2 - (headerBox.y + headerBox.height / 2))).toBeLessThan(8);
  }
  await expect(page.getByRole("button", { name: "Snooze", exact: true })).toBeHidden();

  // The reply box: one row of ⋯, attach, text and send, each at least 44 px.
  const reply = page.getByLabel("Reply");
  const replyBox = (await reply.boundingBox())!;
  for (const control of [page.getByRole("button", { name: "More options for the message" }), page.locator('label[for="composer-file"]'), page.getByRole("button", { name: "Send", exact: true })]) {
    const box = (await control.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.y).toBeLessThan(replyBox.y + replyBox.height);
    expect(box.y + box.height).toBeGreaterThan(replyBox.y);
  }
  await expect(page.getByRole("button", { name: "Polish" })).toBeHidden();
  await expect(page.getByRole("radiogroup", { name: "Write a" })).toBeHidden();

  // Suggestions are one line; the thread keeps at least 60 % of the screen.
  const suggestions = page.getByRole("region", { name: "From your documents" });
  await expect(suggestions).toBeVisible();
  expect((await suggestions.boundingBox())!.height).toBeLessThanOrEqual(56);
  const log = thread(page, name);
  expect((await log.boundingBox())!.height).toBeGreaterThanOrEqual(0.6 * phone.height);
  await expectNoSidewaysScroll(page, "the conversation");
  await page.screenshot({ path: shot("phone-conversation-one-row") });

  // The reply box's ⋯ shows the secondary actions, and hides them again.
  await page.getByRole("button", { name: "More options for the message" }).click();
  await expect(page.getByRole("button", { name: "Polish" })).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: "Write a" })).toBeVisible();
  await page.screenshot({ path: shot("phone-composer-more") });
  await page.getByRole("button", { name: "More options for the message" }).click();
  await expect(page.getByRole("button", { name: "Polish" })).toBeHidden();

  // The header's ⋯ holds every action, on screen.
  await page.getByRole("button", { name: "Conversation actions" }).click();
  const menu = page.getByRole("dialog", { name: "Conversation actions" });
  await expect(menu).toBeVisible();
  for (const action of ["Assign to me", "Close", "Labels", "Snooze", "Details"]) {
    const button = menu.getByRole("button", { name: action, exact: true });
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
  }
  await expect(menu.getByLabel("Assign to a teammate")).toBeVisible();
  await expectNoSidewaysScroll(page, "the open ⋯ menu");
  await page.screenshot({ path: shot("phone-conversation-menu") });
  // Escape closes it; so does a choice.
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "Conversation actions" }).click();
  await menu.getByRole("button", { name: "Assign to me", exact: true }).click();
  await expect(header.getByTestId("conversation-status")).toHaveText("Assigned");
  await expect(menu).toBeHidden();
  // Snooze opens its own menu on screen from there.
  await page.getByRole("button", { name: "Conversation actions" }).click();
  await menu.getByRole("button", { name: "Snooze", exact: true }).click();
  const snooze = page.getByRole("dialog", { name: "Snooze until" });
  await expect(snooze).toBeVisible();
  const snoozeBox = (await snooze.boundingBox())!;
  expect(snoozeBox.x + snoozeBox.width).toBeLessThanOrEqual(phone.width);
  await page.keyboard.press("Escape");
  await expect(snooze).toBeHidden();
  await expect(menu).toBeVisible();
  await menu.getByRole("button", { name: "Close", exact: true }).click();
  await expect(header.getByTestId("conversation-status")).toHaveText("Closed");
  await page.getByRole("button", { name: "Conversation actions" }).click();
  await expect(menu.getByRole("button", { name: "Reopen", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");

  // Back leads to the list, which fits the screen too.
  await page.getByRole("button", { name: "Back to conversations" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expectNoSidewaysScroll(page, "the list after Back");
});

test("desktop: the header keeps its actions in a row, no ⋯ menu", async ({ page, request }) => {
  const name = `Dana Desk ${Date.now() % 100000}`;
  await threadEndingInQuestion(request, name, 3);
  await page.setViewportSize(desktop);
  await signInAsOwner(page);
  await openFromList(page, name);
  await expect(thread(page, name)).toContainText("Do you ship to Madrid");
  const header = page.getByTestId("conversation-header");
  await expect(header.getByRole("button", { name: "Assign to me" })).toBeVisible();
  await expect(header.getByRole("button", { name: "Labels", exact: true })).toBeVisible();
  await expect(header.getByRole("button", { name: "Snooze", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Conversation actions" })).toBeHidden();
  await expect(page.getByRole("button", { name: "More options for the message" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Polish" })).toBeVisible();
  await expectNoSidewaysScroll(page, "the desktop conversation");
  await page.screenshot({ path: shot("desktop-conversation-header") });
});
