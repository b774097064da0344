import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// A conversation opened from its address (a shared link, a push notification's tap, a reload)
// opens where a tap in the list opens it: at the first unread message, under "New messages".

const viewports = [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const;

let run = 0;
const nextPhone = () => `4478${String(Date.now()).slice(-6)}${String(run++ % 100).padStart(2, "0")}`;

async function customer(request: APIRequestContext, token: string, body: Record<string, unknown>) {
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; conversation_id: string };
}

/** `read` customer messages somebody read, then `unread` nobody has. */
async function conversationWithUnread(request: APIRequestContext, name: string, read: number, unread: number, text: (i: number) => string) {
  const token = await adminApiToken(request);
  const from = nextPhone();
  let conversationId = "";
  for (let i = 1; i <= read; i++) conversationId = (await customer(request, token, { from, name, type: "text", text: `Already read ${i}` })).conversation_id;
  expect((await request.post(`/api/inbox/conversations/${conversationId}/read`, { headers: { authorization: `Bearer ${token}` } })).status()).toBeLessThan(300);
  for (let i = 1; i <= unread; i++) await customer(request, token, { from, type: "text", text: text(i) });
  const conversation = await request.get(`/v1/conversations/${conversationId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await conversation.json()) as { unread_count: number }).unread_count).toBe(unread);
  return { token, from, conversationId };
}

const thread = (page: Page, name: string) => page.getByRole("log", { name: `Messages with ${name}` });

async function inView(item: Locator, log: Locator) {
  const [box, frame] = await Promise.all([item.boundingBox(), log.boundingBox()]);
  if (!box || !frame) return false;
  return box.y >= frame.y - 1 && box.y + box.height <= frame.y + frame.height + 1;
}

async function expectInView(item: Locator, log: Locator, what: string) {
  await expect.poll(() => inView(item, log), { message: `${what} is in view`, timeout: 10_000 }).toBe(true);
}

async function expectNoSidewaysScroll(page: Page) {
  const sizes = await page.evaluate(() => ({ scroll: (document.scrollingElement ?? document.documentElement).scrollWidth, client: document.documentElement.clientWidth }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
}

for (const [device, viewport] of viewports) {
  test(`${device}: /inbox/{id} opened directly with many unread messages opens at the first of them, under "New messages"`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const name = `Lena Link ${device} ${Date.now() % 100000}`;
    const { conversationId } = await conversationWithUnread(request, name, 12, 30, (i) => `Unread line ${i} of a long story`);
    await page.setViewportSize(viewport);
    await signInAsOwner(page);
    await page.goto(`/inbox/${conversationId}`);
    const log = thread(page, name);
    const divider = log.getByRole("separator", { name: "New messages" });
    await expect(divider).toBeVisible();
    await expectInView(log.getByText("Unread line 1 of a long story", { exact: true }), log, "the first unread message");
    await expectInView(divider, log, "the New messages divider");
    expect(await inView(log.getByText("Unread line 30 of a long story"), log)).toBe(false);
    // Above the divider: what had been read.
    const dividerBox = (await divider.boundingBox())!;
    const readBox = (await log.getByText("Already read 12", { exact: true }).boundingBox())!;
    expect(readBox.y).toBeLessThan(dividerBox.y);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: shot(`link-opens-at-first-unread-${device}`) });

    // Opening read it for the whole team: the next visit opens at the newest message, without the line.
    await page.reload();
    await expect(log.getByText("Unread line 30 of a long story")).toBeVisible();
    await expectInView(log.getByText("Unread line 30 of a long story"), log, "the newest message after a reload");
    await expect(log.getByRole("separator", { name: "New messages" })).toHaveCount(0);
  });

  test(`${device}: /inbox/{id} opened directly with a few unread messages shows "New messages" and the newest, then stays pinned as messages arrive`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const name = `Lou Link ${device} ${Date.now() % 100000}`;
    const { token, from, conversationId } = await conversationWithUnread(request, name, 30, 2, (i) => `Fresh question ${i}?`);
    await page.setViewportSize(viewport);
    await signInAsOwner(page);
    await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "live", { timeout: 15_000 });
    await page.goto(`/inbox/${conversationId}`);
    await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "live", { timeout: 15_000 });
    const log = thread(page, name);
    const divider = log.getByRole("separator", { name: "New messages" });
    await expect(divider).toBeVisible();
    await page.waitForTimeout(500);
    await expectInView(divider, log, "the New messages divider");
    await expectInView(log.getByText("Fresh question 2?"), log, "the newest message");
    await page.screenshot({ path: shot(`link-opens-with-new-messages-${device}`) });

    // At the newest message, it follows what arrives.
    await customer(request, token, { from, type: "text", text: "One more thing about the pot size" });
    await expectInView(log.getByText("One more thing about the pot size"), log, "a message that just arrived");

    // Scrolled up, nothing moves: arrivals are counted on "↓ N new".
    await log.evaluate((node) => node.scrollTo({ top: 0 }));
    await customer(request, token, { from, type: "text", text: "Hello?" });
    await customer(request, token, { from, type: "text", text: "Still there?" });
    const jump = page.getByRole("button", { name: "↓ 2 new" });
    await expect(jump).toBeVisible();
    expect(await inView(log.getByText("Still there?"), log)).toBe(false);
    const box = (await jump.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(device === "phone" ? 44 : 0);
    await page.screenshot({ path: shot(`link-new-below-${device}`) });
    await jump.click();
    await expectInView(log.getByText("Still there?"), log, "the newest message after ↓ new");
    await expect(jump).toBeHidden();
  });
}
