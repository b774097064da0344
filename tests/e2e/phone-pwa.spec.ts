import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// Browser tests share a busy machine: each test gets room beyond the default minute.
test.describe.configure({ timeout: 180_000 });

const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

let seq = 0;
async function customerWrites(request: APIRequestContext, name: string, text: string) {
  const token = await adminApiToken(request);
  seq += 1;
  const from = `4477118${String(Date.now() % 10000).padStart(4, "0")}${seq % 10}`;
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name, type: "text", text } });
  expect(res.status()).toBe(201);
  const body = await res.json();
  return (body.conversation_id ?? body.message?.conversation_id ?? body.conversation?.id) as string;
}

async function outboundTexts(request: APIRequestContext, conversationId: string) {
  const token = await adminApiToken(request);
  const res = await request.get(`/v1/conversations/${conversationId}/messages?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { direction: string; text: string | null }[]).filter((m) => m.direction === "outbound").map((m) => m.text);
}

async function ownerPage(browser: Browser, viewport = desktop) {
  const context = await browser.newContext({ viewport, hasTouch: viewport === phone, isMobile: viewport === phone });
  const page = await context.newPage();
  await signInAsOwner(page);
  return page;
}

const noHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const conversationRow = (page: Page, name: string) => page.getByRole("list", { name: "Conversation list" }).getByRole("button", { name: new RegExp(name) });

test("Chorus is installable: manifest, icons, favicon.ico, apple-touch-icon and a service worker Chromium accepts", async ({ browser, request }) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const body = await manifest.json();
  expect(body).toMatchObject({ name: expect.stringContaining("Chorus"), short_name: "Chorus", start_url: "/inbox", display: "standalone", theme_color: "#178059", background_color: "#ffffff" });
  for (const size of ["192x192", "512x512"]) {
    for (const purpose of ["any", "maskable"]) {
      const icon = (body.icons as { src: string; sizes: string; purpose: string }[]).find((i) => i.sizes === size && i.purpose === purpose);
      expect(icon, `${purpose} ${size}`).toBeDefined();
      const file = await request.get(icon!.src);
      expect(file.status()).toBe(200);
      expect(file.headers()["content-type"]).toBe("image/png");
      const bytes = await file.body();
      expect(bytes.readUInt32BE(16)).toBe(Number(size.split("x")[0]));
    }
  }
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));

  const page = await ownerPage(browser, phone);
  const response = await page.goto("/inbox");
  expect(response!.headers()["content-security-policy"]).toContain("worker-src 'self'");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", /manifest\.webmanifest/);
  const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
  expect((await request.get(appleIcon!)).status()).toBe(200);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#178059");
  // The worker installs and takes the page.
  expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toMatch(/\/sw\.js$/);
  // What Chromium itself says about installing this page (the same check as its install prompt).
  // A test's browser context is an incognito one, where Chromium never offers to install.
  const cdp = await page.context().newCDPSession(page);
  const installabilityErrors = async () =>
    ((await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map((e) => e.errorId).filter((id) => id !== "in-incognito");
  await expect.poll(installabilityErrors, { timeout: 20_000 }).toEqual([]);
  await page.context().close();
});

test("Settings → Notifications: choices and quiet hours are saved, usable on a phone and a desktop", async ({ browser }) => {
  for (const viewport of [phone, desktop]) {
    const page = await ownerPage(browser, viewport);
    await page.goto("/settings/notifications");
    await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
    await expect(page.getByText(/This device (gets|cannot)|blocked/)).toBeVisible();
    await page.getByLabel("Mentions").uncheck();
    await page.getByLabel("No notifications at night").check();
    await page.getByLabel("From").fill("21:30");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Your notification choices are saved.")).toBeVisible();
    expect(await noHorizontalScroll(page)).toBe(true);
    if (viewport === phone) {
      for (const box of await page.locator("main label, main button, label:has(input[type=checkbox]), button:visible").all()) {
        const size = await box.boundingBox();
        if (size && (await box.isVisible()) && (await box.evaluate((el) => !!el.closest("form")))) expect(size.height, await box.innerText()).toBeGreaterThanOrEqual(44);
      }
    }
    await page.screenshot({ path: shot(`notifications-settings-${viewport.width}`), fullPage: true });
    await page.reload();
    await expect(page.getByLabel("Mentions")).not.toBeChecked();
    await expect(page.getByLabel("From")).toHaveValue("21:30");
    await page.getByLabel("Mentions").check();
    await page.getByLabel("No notifications at night").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Your notification choices are saved.")).toBeVisible();
    await page.context().close();
  }
});

test("offline: conversations read before stay readable without a reload, and a reply typed offline is sent exactly once when the network is back", async ({ browser, request }) => {
  const first = await customerWrites(request, "Olga Tunnel", "Is the fern in stock?");
  await customerWrites(request, "Pablo Tunnel", "Do you deliver on Sundays?");
  const page = await ownerPage(browser, phone);
  await page.goto("/inbox");
  // Read both conversations while online (the inbox keeps what it reads).
  for (const [name, words] of [["Pablo Tunnel", "deliver on Sundays"], ["Olga Tunnel", "fern in stock"]]) {
    await conversationRow(page, name).click();
    await expect(page.getByRole("log", { name: `Messages with ${name}` })).toContainText(words);
    await page.getByRole("button", { name: "Back to conversations" }).click();
  }
  await expect
    .poll(() => page.evaluate(() => new Promise<number>((resolve) => {
      const open = indexedDB.open("chorus-offline");
      open.onsuccess = () => {
        const count = open.result.transaction("responses").objectStore("responses").count();
        count.onsuccess = () => resolve(count.result);
      };
      open.onerror = () => resolve(0);
    })))
    // The list and both conversations' newest messages.
    .toBeGreaterThanOrEqual(3);

  await page.context().setOffline(true);
  await expect(page.getByText("Offline — replies will be sent when you're back")).toBeVisible();
  await conversationRow(page, "Pablo Tunnel").click();
  await expect(page.getByRole("log", { name: "Messages with Pablo Tunnel" })).toContainText("deliver on Sundays");
  await page.getByRole("button", { name: "Back to conversations" }).click();
  await conversationRow(page, "Olga Tunnel").click();
  await expect(page.getByRole("log", { name: "Messages with Olga Tunnel" })).toContainText("fern in stock");

  const words = `Yes, two left — held for you ${Date.now()}`;
  await page.getByLabel("Reply").fill(words);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const log = page.getByRole("log", { name: "Messages with Olga Tunnel" });
  await expect(log).toContainText(words);
  await expect(log.locator('[data-status="waiting"]')).toBeVisible();
  await page.screenshot({ path: shot("offline-reply-waiting-390") });
  expect(await noHorizontalScroll(page)).toBe(true);
  // Nothing reached the server while offline.
  await page.waitForTimeout(1_000);
  expect((await outboundTexts(request, first)).filter((t) => t === words)).toHaveLength(0);

  await page.context().setOffline(false);
  await expect(page.getByText("Offline — replies will be sent when you're back")).toBeHidden();
  await expect.poll(async () => (await outboundTexts(request, first)).filter((t) => t === words).length, { timeout: 20_000 }).toBe(1);
  await expect(log.locator('[data-status="waiting"]')).toHaveCount(0);
  await expect(log.getByText(words)).toHaveCount(1);
  // Once: a second look later finds it still stored once.
  await page.waitForTimeout(2_000);
  expect((await outboundTexts(request, first)).filter((t) => t === words)).toHaveLength(1);
  await page.screenshot({ path: shot("offline-reply-sent-390") });
  await page.context().close();
});

test("the service worker shows a push only when no Chorus window is in front, and the notification leads to the conversation", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ viewport: phone });
  await context.grantPermissions(["notifications"], { origin: baseURL });
  const page = await context.newPage();
  await signInAsOwner(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) =>
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const mine = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    }),
  );
  await cdp.send("ServiceWorker.enable");
  const id = await registrationId;
  const push = (tag: string) =>
    cdp.send("ServiceWorker.deliverPushMessage", { origin: `${baseURL}/`, registrationId: id, data: JSON.stringify({ title: "Marta Ruiz", body: "¿Tenéis la monstera?", url: "/inbox/conv_01jd2x8k3f0m6q1v9w4r7t5y2z", tag, type: "new_message" }) });
  const shown = () =>
    page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url })));

  // The inbox is in front of the person: it tells them itself.
  expect(await page.evaluate(() => document.visibilityState === "visible" && document.hasFocus())).toBe(true);
  await push("in-front");
  await page.waitForTimeout(1_000);
  expect(await shown()).toEqual([]);

  // No window of Chorus open: the push is shown, and its tap target is the conversation.
  await page.goto("about:blank");
  await push("closed");
  await page.waitForTimeout(1_000);
  await page.goto("/settings/notifications");
  await expect.poll(shown).toEqual([{ title: "Marta Ruiz", body: "¿Tenéis la monstera?", tag: "closed", url: "/inbox/conv_01jd2x8k3f0m6q1v9w4r7t5y2z" }]);
  await context.close();
});
