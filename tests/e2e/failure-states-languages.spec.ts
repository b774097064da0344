import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { shot } from "./fixtures";
import { adminSpeaking, customerWrites, signIn, signInAsOwner } from "./helpers";
import { strayText } from "./pseudo";

/*
 * What a person sees when things go wrong — no network, a server error, a reply that was not
 * sent, an ended session — in the reader's language, at desktop and phone width: in the
 * pseudo-locale every visible word (and label) must come from the catalogs; in Spanish and
 * Portuguese the same moments are photographed and nothing may scroll sideways.
 */

test.describe.configure({ timeout: 180_000 });

const viewports = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

const reply = (page: Page) => page.locator("#composer-text");
const live = (page: Page) => expect(page.locator("[data-live]")).toHaveAttribute("data-live", "live", { timeout: 30_000 });
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Ends the session the way it expires: the session cookie goes, the page stays. */
async function endSession(context: BrowserContext) {
  const kept = (await context.cookies()).filter((cookie) => !cookie.name.includes("session-token"));
  await context.clearCookies();
  if (kept.length) await context.addCookies(kept);
}

/**
 * Walks one conversation through the failures, calling `check(moment)` at each: offline with a
 * reply waiting, a reply the network dropped, a server error on Retry, and the ended session's dialog.
 */
async function walkFailures(page: Page, id: string, check: (moment: string) => Promise<void>) {
  await page.goto(`/inbox/${id}`);
  await live(page);
  const context = page.context();

  // No network: the reply waits on this device, and the banner says it will go when back.
  await context.setOffline(true);
  await reply(page).fill("Sending the tracking number now.");
  await reply(page).press("Enter");
  await expect(page.locator('[data-status="waiting"]')).toBeVisible();
  await check("offline-waiting");
  await context.setOffline(false);
  await expect(page.locator('[data-status="waiting"]')).toHaveCount(0, { timeout: 20_000 });

  // The network drops the request: the reply stays as not sent, with Retry.
  await page.route("**/v1/messages", (route) => route.abort("internetdisconnected"));
  await reply(page).fill("Here is the tracking number.");
  await reply(page).press("Enter");
  const unsent = page.getByTestId("unsent").first();
  await expect(unsent).toBeVisible({ timeout: 20_000 });
  await check("not-sent");
  await page.unroute("**/v1/messages");
  await page.route("**/v1/messages", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", headers: { "retry-after": "5" }, body: JSON.stringify({ error: { code: "service_unavailable", message: "upstream connect error" } }) }),
  );
  await unsent.getByRole("button").first().click();
  await expect(unsent).toContainText("503");
  await expect(unsent).not.toContainText("upstream connect error");
  await check("server-error");
  await page.unroute("**/v1/messages");

  await endSession(context);
  // Whichever request finds out first opens the dialog: Retry, or one the page makes meanwhile
  // (the live stream reconnecting), after which the dialog covers Retry.
  const dialog = page.getByRole("dialog");
  await Promise.race([dialog.waitFor({ state: "visible" }), unsent.getByRole("button").first().click({ timeout: 10_000 }).catch(() => undefined)]);
  await expect(dialog).toBeVisible();
  await check("session-ended");
}

for (const viewport of viewports) {
  test(`pseudo-locale at ${viewport.name} width: offline, a server error and an ended session speak only from the catalogs`, async ({ browser, request }) => {
    const id = await customerWrites(request, `Pseudo Failure ${viewport.name}`, "Is my order on its way?");
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signInAsOwner(page);
    await context.addCookies([{ name: "chorus_pseudo_locale", value: "1", url: baseURL }]);
    const problems: string[] = [];
    await walkFailures(page, id, async (moment) => {
      await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
      for (const text of await strayText(page, "body")) problems.push(`${moment}: ${text}`);
      expect(await sideways(page), `${moment} scrolls sideways`).toBeLessThanOrEqual(1);
      await page.screenshot({ path: shot(`failures-pseudo-${viewport.name}-${moment}`) });
    });
    expect(problems).toEqual([]);
    await context.close();
  });
}

for (const locale of ["es", "pt-BR"] as const) {
  test(`${locale} on a phone: offline, a server error and an ended session are told in ${locale}`, async ({ browser, request }) => {
    const admin = await adminSpeaking(request, locale, `Failure Reader ${locale}`);
    const id = await customerWrites(request, `Failure Customer ${locale}`, "Is my order on its way?");
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, admin.email, admin.password);
    const english = /Not sent|No connection|problem on its side|Your session has ended|Sign in again|Offline|Waiting for/;
    await walkFailures(page, id, async (moment) => {
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.locator("body")).not.toContainText(english);
      expect(await sideways(page), `${moment} scrolls sideways`).toBeLessThanOrEqual(1);
      await page.screenshot({ path: shot(`failures-${locale}-phone-${moment}`) });
    });
    await context.close();
  });
}
