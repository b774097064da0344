import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, customerWrites, signIn, signInAsOwner } from "./helpers";

// Browser tests share a busy machine: each test gets room beyond the default minute.
test.describe.configure({ timeout: 180_000 });

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;
const seriousViolations = (results: AxeResults) =>
  results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);

async function storedOutbound(request: APIRequestContext, conversationId: string) {
  const token = await adminApiToken(request);
  const res = await request.get(`/v1/conversations/${conversationId}/messages?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { direction: string; text: string | null; media: { filename?: string; caption?: string } | null }[]).filter((m) => m.direction === "outbound");
}

async function ownerPage(browser: Browser, viewport = desktop) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signInAsOwner(page);
  return page;
}

// The indicator sits in the list, which a phone hides while a conversation is open.
const live = (page: Page) => expect(page.locator("[data-live]")).toHaveAttribute("data-live", "live", { timeout: 15_000 });
const reply = (page: Page) => page.getByLabel("Reply");
const pdf = { name: "quote.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n") };

test("a reply that cannot be sent keeps its words and file with Retry, and Retry after recovery stores it once", async ({ browser, request }) => {
  const id = await customerWrites(request, "Nadia Retry", "Can you send me a quote?");
  const page = await ownerPage(browser);
  await page.goto(`/inbox/${id}`);
  await live(page);
  await expect(page.getByRole("log", { name: "Messages with Nadia Retry" })).toContainText("send me a quote");

  // A slow network: the reply shows at once as sending.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/v1/messages", async (route) => {
    await held;
    await route.abort("internetdisconnected");
  });
  await page.locator("#composer-file").setInputFiles(pdf);
  await reply(page).fill("Here is your quote, valid for 30 days.");
  await reply(page).press("Enter");
  const bubble = page.locator('[data-direction="outbound"]', { hasText: "valid for 30 days" });
  await expect(bubble.locator('[data-status="sending"]')).toBeVisible();
  await expect(bubble).toContainText("quote.pdf");
  await expect(reply(page)).toHaveValue("");
  await page.screenshot({ path: shot("reliability-sending-desktop") });

  // The network is down: the reply stays, with its file, as "Not sent" and says why.
  release();
  await expect(bubble.getByTestId("unsent")).toContainText("Not sent.");
  await expect(bubble.getByTestId("unsent")).toContainText("No connection to Chorus");
  await expect(bubble).toContainText("quote.pdf");
  await expect(bubble.getByRole("button", { name: "Retry" })).toBeVisible();
  await expect(bubble.getByRole("button", { name: "Discard" })).toBeVisible();
  await page.screenshot({ path: shot("reliability-not-sent-desktop") });

  // The server fails: a 5xx is explained in plain words.
  await page.unroute("**/v1/messages");
  await page.route("**/v1/messages", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: { code: "unavailable", message: "upstream connect error" } }) }),
  );
  await bubble.getByRole("button", { name: "Retry" }).click();
  await expect(bubble.getByTestId("unsent")).toContainText("problem on its side (error 503)");
  await expect(bubble).not.toContainText("upstream connect error");

  // The worst case: the server stores the reply but the answer is lost on the way back.
  await page.unroute("**/v1/messages");
  await page.route("**/v1/messages", async (route) => {
    await route.fetch();
    await route.abort("connectionreset");
  });
  await bubble.getByRole("button", { name: "Retry" }).click();
  await expect(bubble.getByTestId("unsent")).toContainText("No connection to Chorus");
  expect((await storedOutbound(request, id)).filter((m) => m.media?.filename === "quote.pdf")).toHaveLength(1);

  // It survives a reload, still with Retry.
  await page.unroute("**/v1/messages");
  await page.reload();
  await live(page);
  const kept = page.locator('[data-direction="outbound"]', { hasText: "valid for 30 days" }).filter({ has: page.getByTestId("unsent") });
  await expect(kept).toContainText("quote.pdf");

  // Recovered: Retry stores nothing new; the thread shows the one stored reply.
  await kept.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("unsent")).toHaveCount(0);
  const log = page.getByRole("log", { name: "Messages with Nadia Retry" });
  await expect(log.locator('[data-direction="outbound"]', { hasText: "valid for 30 days" })).toHaveCount(1);
  const stored = (await storedOutbound(request, id)).filter((m) => m.media?.filename === "quote.pdf");
  expect(stored).toHaveLength(1);
  expect(stored[0].media?.caption).toBe("Here is your quote, valid for 30 days.");

  // Discard removes a reply that is not wanted any more, and sends nothing.
  await page.route("**/v1/messages", (route) => route.abort("internetdisconnected"));
  await reply(page).fill("Never mind this one.");
  await reply(page).press("Enter");
  const unwanted = page.locator('[data-direction="outbound"]', { hasText: "Never mind this one." });
  await unwanted.getByRole("button", { name: "Discard" }).click();
  await expect(unwanted).toHaveCount(0);
  await page.unroute("**/v1/messages");
  expect((await storedOutbound(request, id)).filter((m) => m.text === "Never mind this one.")).toHaveLength(0);
  await page.context().close();
});

test("scrolling up a long conversation on a phone loads it page by page, in order, without the view jumping", async ({ browser, request }) => {
  const token = await adminApiToken(request);
  const from = `4477008${String(Date.now() % 100000).padStart(5, "0")}`;
  const TOTAL = 130;
  let id = "";
  for (let n = 1; n <= TOTAL; n++) {
    const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name: "Lena Long", type: "text", text: `Long thread ${n}` } });
    expect(res.status()).toBe(201);
    const body = await res.json();
    id = body.conversation_id ?? body.message?.conversation_id ?? body.conversation?.id;
  }
  // Read already (as on another device): an unread conversation would open at its first unread
  // message instead, and this test is about paging up from the newest.
  expect((await request.post(`/api/inbox/conversations/${id}/read`, { headers: { authorization: `Bearer ${token}` } })).status()).toBeLessThan(300);
  const page = await ownerPage(browser, phone);
  await page.goto(`/inbox/${id}`);
  const thread = page.getByRole("log", { name: "Messages with Lena Long" });
  await expect(thread.getByText(`Long thread ${TOTAL}`, { exact: true })).toBeVisible();
  // The newest page only, at the bottom.
  await expect(thread.getByText("Long thread 1", { exact: true })).toHaveCount(0);
  // The customer's words (an earlier test may have set opening hours, and an away reply follows the first).
  const texts = () => thread.locator('[data-message-id][data-direction="inbound"] p.whitespace-pre-wrap').allTextContents();
  const topOf = (messageId: string) => thread.evaluate((_log, id) => document.querySelector(`[data-message-id="${id}"]`)!.getBoundingClientRect().top, messageId);

  // The first older page is held back a moment, to see the view while it loads.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/v1/conversations/${id}/messages?*cursor=*`, async (route) => {
    await held;
    await route.continue();
  });
  for (let pages = 0; !(await thread.getByText("Start of the conversation").isVisible()); pages++) {
    expect(pages).toBeLessThan(10);
    const before = (await texts()).length;
    // Scrolled to the top: the oldest message shown is where the eye is when older ones arrive.
    const anchor = await thread.evaluate((log) => {
      log.scrollTo({ top: 0 });
      const first = log.querySelector("[data-message-id]")!;
      return { id: first.getAttribute("data-message-id")!, top: first.getBoundingClientRect().top };
    });
    if (pages === 0) {
      await expect(thread.getByText("Loading earlier messages…")).toBeVisible();
      await page.screenshot({ path: shot("long-thread-phone-loading") });
      expect(Math.abs((await topOf(anchor.id)) - anchor.top)).toBeLessThan(2);
      release();
    }
    await expect.poll(async () => (await texts()).length).toBeGreaterThan(before);
    await expect(thread).toHaveAttribute("aria-busy", "false");
    expect(Math.abs((await topOf(anchor.id)) - anchor.top)).toBeLessThan(2);
  }
  // Every message once, oldest first; at the top, the start of the conversation.
  expect(await texts()).toEqual(Array.from({ length: TOTAL }, (_, i) => `Long thread ${i + 1}`));
  await thread.evaluate((log) => log.scrollTo({ top: 0 }));
  await expect(thread.getByText("Start of the conversation")).toBeInViewport();
  await expect(thread.getByText("Long thread 1", { exact: true })).toBeInViewport();
  await page.screenshot({ path: shot("long-thread-phone-top") });

  // The reaction menu of a one-line bubble opens above it, over its neighbours, and takes a tap.
  const bubble = thread.locator("[data-message-id]").filter({ has: page.getByText("Long thread 4", { exact: true }) });
  await bubble.getByRole("button", { name: "Add a reaction" }).click();
  await bubble.getByRole("menuitem", { name: "React 👍" }).click();
  await expect(bubble.getByTestId("reactions")).toContainText("👍");
  await page.context().close();
});

test("a draft, with the chosen file's name, survives a reload, per conversation", async ({ browser, request }) => {
  const first = await customerWrites(request, "Dora Draft", "Hello?");
  const second = await customerWrites(request, "Otto Other", "Hi there");
  const page = await ownerPage(browser);
  await page.goto(`/inbox/${first}`);
  await live(page);
  await page.locator("#composer-file").setInputFiles(pdf);
  await reply(page).fill("Half-written answer about the delivery");
  await page.goto(`/inbox/${second}`);
  await expect(reply(page)).toHaveValue("");
  await reply(page).fill("Another thought");
  await page.reload();
  await expect(reply(page)).toHaveValue("Another thought");
  await page.goto(`/inbox/${first}`);
  await expect(reply(page)).toHaveValue("Half-written answer about the delivery");
  await expect(page.getByTestId("draft-file")).toContainText("quote.pdf");
  await page.screenshot({ path: shot("reliability-draft-after-reload-desktop") });
  await page.context().close();
});

test("an expired session asks to sign in, then returns to the same conversation with the draft and the unsent reply", async ({ browser, request }) => {
  const id = await customerWrites(request, "Sam Session", "Are you there?");
  const context = await browser.newContext({ viewport: phone });
  const page = await context.newPage();
  // Requests of the page in flight (the live stream aside), to wait until it is quiet.
  let inFlight = 0;
  let quietSince = Date.now();
  const counted = (r: { url: () => string }) => !r.url().includes("/v1/events/stream");
  page.on("request", (r) => void (counted(r) && inFlight++));
  const done = (r: { url: () => string }) => {
    if (!counted(r)) return;
    inFlight--;
    quietSince = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  await signIn(page, firstAdmin.email, firstAdmin.password);
  // The session must end while the page is quiet: any request that finds out first (the
  // document suggestions, or the refresh after a live event) opens the dialog before the send.
  const suggested = page.waitForResponse((r) => r.url().endsWith(`/v1/conversations/${id}/suggestions`));
  await page.goto(`/inbox/${id}`);
  await live(page);
  await suggested;
  // Outside opening hours an automatic answer went out; its simulated delivered and read
  // statuses each refresh the conversation. The last of them is "Read".
  const automatic = page.locator('[data-direction="outbound"]');
  if (await automatic.count()) await expect(automatic.last().getByRole("img", { name: "Read" })).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => inFlight === 0 && Date.now() - quietSince > 500).toBe(true);

  // The session cookie is gone (expired); the next send is refused with a 401.
  await context.clearCookies();
  await reply(page).fill("Yes, we are! Sending the details now.");
  await reply(page).press("Enter");
  const dialog = page.getByRole("dialog", { name: "Your session has ended" });
  await expect(dialog).toBeVisible();
  await expect(page.getByText(/Authentication required|Bearer/)).toHaveCount(0);
  // Focus is on the title: an Enter typed mid-sentence does not leave the page.
  await expect(dialog.getByRole("heading", { name: "Your session has ended" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/inbox/${id}$`));
  await page.screenshot({ path: shot("reliability-session-ended-phone") });

  // Words typed meanwhile are kept too.
  await dialog.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/inbox/${id}`).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await page.getByLabel("Email").fill(firstAdmin.email);
  await page.getByLabel("Password").fill(firstAdmin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${id}$`));
  await live(page);
  const kept = page.locator('[data-direction="outbound"]', { hasText: "Sending the details now." });
  await expect(kept.getByTestId("unsent")).toBeVisible();
  await kept.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("unsent")).toHaveCount(0);
  const storedReplies = async () => (await storedOutbound(request, id)).filter((m) => m.text === "Yes, we are! Sending the details now.").length;
  await expect.poll(storedReplies).toBe(1);

  // A draft in the box when the session ends comes back as well.
  await reply(page).fill("One more thing about the order");
  await context.clearCookies();
  await page.reload();
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel("Email").fill(firstAdmin.email);
  await page.getByLabel("Password").fill(firstAdmin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${id}$`));
  await expect(reply(page)).toHaveValue("One more thing about the order");
  expect(await storedReplies()).toBe(1);
  await context.close();
});

test("every conversation has a link: deep links, reload, Back and Forward; on a phone Back returns to the list", async ({ browser, request }) => {
  const a = await customerWrites(request, "Ana Link", "First conversation");
  const b = await customerWrites(request, "Ben Link", "Second conversation");
  const page = await ownerPage(browser);
  const row = (name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });
  const header = page.getByTestId("conversation-header");

  await page.goto("/inbox");
  await live(page);
  await expect(page).toHaveURL(/\/inbox$/);
  await row("Ana Link").click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${a}$`));
  await row("Ben Link").click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${b}$`));
  await expect(header).toContainText("Ben Link");
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/inbox/${a}$`));
  await expect(header).toContainText("Ana Link");
  await page.goForward();
  await expect(header).toContainText("Ben Link");
  await page.reload();
  await expect(header).toContainText("Ben Link");

  // A pasted link opens the conversation; a link to nothing says so, with a way back.
  const other = await browser.newContext({ viewport: desktop, storageState: await page.context().storageState() });
  const pasted = await other.newPage();
  await pasted.goto(`/inbox/${a}`);
  await expect(pasted.getByTestId("conversation-header")).toContainText("Ana Link");
  await pasted.goto(`/inbox/conv_${"0".repeat(26)}`);
  await expect(pasted.getByText("This conversation does not exist")).toBeVisible();
  await pasted.goto("/inbox/not-a-conversation");
  await expect(pasted.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
  await pasted.screenshot({ path: shot("reliability-404-desktop") });
  await pasted.getByRole("link", { name: "Go to the inbox" }).click();
  await expect(pasted).toHaveURL(/\/inbox$/);
  await other.close();
  await page.context().close();

  // On a phone: open from the list, Back returns to the list; a pasted link's Back too.
  const mobile = await ownerPage(browser, phone);
  const mobileRow = (name: string) => mobile.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });
  await live(mobile);
  await mobileRow("Ana Link").click();
  await expect(mobile.getByRole("log", { name: "Messages with Ana Link" })).toBeVisible();
  await expect(mobile).toHaveURL(new RegExp(`/inbox/${a}$`));
  await mobile.goBack();
  await expect(mobile).toHaveURL(/\/inbox$/);
  await expect(mobile.getByRole("region", { name: "Conversations" })).toBeVisible();
  await mobile.goto(`/inbox/${b}`);
  await expect(mobile.getByRole("log", { name: "Messages with Ben Link" })).toBeVisible();
  await mobile.goBack();
  await expect(mobile).toHaveURL(/\/inbox$/);
  await expect(mobile.getByRole("region", { name: "Conversations" })).toBeVisible();
  await mobile.context().close();
});

test("the tab title counts unread conversations and the filter tabs count conversations, live", async ({ browser, request }) => {
  const page = await ownerPage(browser);
  await live(page);
  const token = await adminApiToken(request);
  const counts = async () => (await (await request.get("/api/inbox/counts", { headers: { authorization: `Bearer ${token}` } })).json()) as { all: number; unread: number; unassigned: number };
  const before = await counts();
  await expect(page).toHaveTitle(before.unread ? `(${before.unread}) Inbox · Chorus` : "Inbox · Chorus");
  await expect(page.getByTestId("count-all")).toHaveText(String(before.all));

  await customerWrites(request, "Tina Title", "Something new arrived");
  await expect(page).toHaveTitle(`(${before.unread + 1}) Inbox · Chorus`);
  await expect(page.getByTestId("count-all")).toHaveText(String(before.all + 1));
  await expect(page.getByTestId("count-unassigned")).toHaveText(String(before.unassigned + 1));
  const row = page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: /Tina Title/ });
  await expect(row).toContainText("Something new arrived");
  await row.click();
  await expect(page).toHaveTitle(before.unread ? `(${before.unread}) Inbox · Chorus` : "Inbox · Chorus");
  await page.context().close();
});

test("keyboard shortcuts move, search, reply and list themselves", async ({ browser, request }) => {
  await customerWrites(request, "Kira Keys", "Shortcut test one");
  await customerWrites(request, "Kurt Keys", "Shortcut test two");
  const page = await ownerPage(browser);
  await live(page);
  await page.locator("body").click({ position: { x: 700, y: 400 } });
  await page.keyboard.press("j");
  await expect(page).toHaveURL(/\/inbox\/conv_/);
  const firstUrl = page.url();
  await page.keyboard.press("j");
  await expect(page).not.toHaveURL(firstUrl);
  await page.keyboard.press("k");
  await expect(page).toHaveURL(firstUrl);
  await page.keyboard.press("r");
  await expect(reply(page)).toBeFocused();
  await page.keyboard.press("Escape");
  await reply(page).blur();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Assign the open conversation to me");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.keyboard.press("/");
  await expect(page.getByLabel("Search names, numbers and conversation text")).toBeFocused();
  await page.context().close();
});

/** The page has loaded and hydrated (the inbox keeps a live connection open, so "network idle" never comes). */
async function settled(page: Page) {
  await page.waitForLoadState("load");
  await page.locator("h1:visible, h2:visible").first().waitFor();
  await page.waitForTimeout(300);
}

/** Fails when the page scrolls sideways or an element sticks out of the viewport. */
async function expectFitsPhone(page: Page, what: string) {
  const overflow = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scroll: root.scrollWidth, client: root.clientWidth, body: document.body.scrollWidth, height: root.scrollHeight, clientHeight: root.clientHeight };
  });
  // Signed-in pages scroll inside the app frame: a taller document is a blank area under it.
  expect(overflow.height, `${what} has a blank area below the app`).toBeLessThanOrEqual(overflow.clientHeight);
  expect(overflow.scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(overflow.client);
  expect(overflow.body, `${what} body is wider than the screen`).toBeLessThanOrEqual(overflow.client);
}

async function expectInViewport(page: Page, selector: string, what: string) {
  const boxes = await page.locator(selector).evaluateAll((nodes) =>
    nodes.filter((n) => (n as HTMLElement).offsetParent !== null || getComputedStyle(n).position === "fixed").map((n) => n.getBoundingClientRect().toJSON() as DOMRect),
  );
  expect(boxes.length, `${what} is shown`).toBeGreaterThan(0);
  for (const box of boxes) {
    expect(box.left, `${what} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.right, `${what} ends on screen`).toBeLessThanOrEqual(phone.width);
    expect(box.bottom, `${what} fits vertically`).toBeLessThanOrEqual(phone.height);
  }
}

test("at phone width every page is reachable from the menu, nothing scrolls sideways and menus stay on screen", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const id = await customerWrites(request, "Paula Phone", "Checking the phone layout with a fairly long first message to wrap");
  const page = await ownerPage(browser, phone);
  await live(page);
  await expectFitsPhone(page, "inbox list");

  // The menu lists every page, including Settings (and its pages) and API docs.
  const menuButton = page.getByRole("button", { name: "Menu" });
  await menuButton.click();
  const menu = page.getByRole("navigation", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expectInViewport(page, "#mobile-menu", "the menu");
  const links = await menu.getByRole("link").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("href")!));
  for (const href of ["/inbox", "/reports", "/settings", "/docs", "/settings/profile", "/settings/number", "/settings/users", "/settings/tokens", "/settings/webhooks"]) {
    expect(links).toContain(href);
  }
  await page.screenshot({ path: shot("phone-menu") });
  await page.keyboard.press("Escape");

  // Every page: reached through the menu, no sideways scroll.
  for (const href of links) {
    await menuButton.click();
    await menu.locator(`a[href="${href}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${href}(/profile)?$`));
    await settled(page);
    await expectFitsPhone(page, href);
    await page.screenshot({ path: shot(`phone-page${href.replace(/\//g, "-")}`), fullPage: true });
  }
  for (const href of ["/docs/v1", "/docs/plant-store", "/settings/nowhere"]) {
    await page.goto(href);
    await settled(page);
    await expectFitsPhone(page, href);
  }

  // The account menu stays on screen.
  await page.goto("/inbox");
  await page.getByText("Account", { exact: true }).click();
  await expectInViewport(page, "#account-menu", "the account menu");
  await page.getByText("Account", { exact: true }).click();

  // A conversation: a compact header, and its popovers on screen.
  await page.goto(`/inbox/${id}`);
  await expect(page.getByRole("log", { name: "Messages with Paula Phone" })).toBeVisible();
  const headerBox = await page.getByTestId("conversation-header").boundingBox();
  expect(headerBox!.height).toBeLessThanOrEqual(120);
  await expectFitsPhone(page, "conversation");
  await reply(page).fill("thx for waiting, ur order ships tmrw");
  // On a phone Polish is among the reply box's secondary actions, behind its ⋯.
  await page.getByRole("button", { name: "More options for the message" }).click();
  await page.getByRole("button", { name: "Polish" }).click();
  await expect(page.getByRole("dialog", { name: "Polish the reply" })).toBeVisible();
  await expectInViewport(page, '[role="dialog"][aria-label="Polish the reply"]', "the Polish popover");
  await page.screenshot({ path: shot("phone-conversation-polish") });
  await page.keyboard.press("Escape");
  await page.goto("/inbox");
  await page.getByRole("button", { name: /^Notifications (on|off)/ }).click();
  // Its choices load on first use: measured once shown.
  await expect(page.locator("#attention-settings")).toBeVisible();
  await expectInViewport(page, "#attention-settings", "the notifications popover");
  await page.screenshot({ path: shot("phone-notifications") });

  // The settings sub-menu shows all its pages without scrolling sideways.
  await page.goto("/settings/profile");
  await expectInViewport(page, 'nav[aria-label="Settings"] a', "the settings menu");
  await page.context().close();
});

test("axe finds no serious or critical violation on the inbox, settings and reports", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const id = await customerWrites(request, "Axel Axe", "Accessibility check");
  for (const viewport of [desktop, phone]) {
    const page = await ownerPage(browser, viewport);
    for (const path of [`/inbox/${id}`, "/inbox", "/reports", "/settings/profile", "/settings/number", "/settings/users", "/settings/tokens", "/settings/webhooks"]) {
      await page.goto(path);
      await settled(page);
      if (path.startsWith("/inbox")) await live(page);
      expect(seriousViolations(await new AxeBuilder({ page }).analyze()), `${path} at ${viewport.width}px`).toEqual([]);
    }
    await page.screenshot({ path: shot(`axe-last-${viewport.width}`) });
    await page.context().close();
  }
});
