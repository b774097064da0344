import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { adminApiToken, signInAsOwner } from "./helpers";
import { baseURL } from "../../playwright.config";
import { shot } from "./fixtures";

/*
 * The pseudo-locale pass over campaigns, contacts, reports, the /docs guide, the OAuth consent
 * page and the bad-address page: with every catalog string wrapped in ⟦…⟧ (the en-XA locale,
 * switched on by a cookie on the test server), a visible text the catalogs did not produce shows
 * up outside the markers. Skipped, as not the product's own words: anything inside
 * `[data-user-content]` (what people typed), `[translate="no"]` (codes, numbers, what Intl wrote)
 * and `<time>` (dates, times and durations written by Intl); text of only digits and punctuation.
 * Same rules as tests/e2e/pseudo-locale.spec.ts, which covers the other pages.
 */

type Visit = { path: string; ready: (page: Page) => Promise<void>; then?: (page: Page) => Promise<void> };

const viewports = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

let run = 0;
const nextPhone = () => `4479${String(Date.now()).slice(-6)}${String(run++ % 100).padStart(2, "0")}`;

/** A customer who wrote in (so contacts, reports and the heatmap have something), and a registered OAuth app. */
async function seed(request: APIRequestContext) {
  const token = await adminApiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const phone = nextPhone();
  const inbound = await request.post("/api/sandbox/inbound", { headers, data: { from: phone, name: "Pseudo Shopper", type: "text", text: "Do you ship plants to Rosario?" } });
  expect(inbound.status(), await inbound.text()).toBe(201);
  const contacts = await request.get(`/v1/contacts?q=${phone}`, { headers });
  const contactId = ((await contacts.json()).data[0] as { id: string }).id;
  const redirectUri = "https://crm.example.com/callback";
  const app = await request.post("/v1/apps", {
    headers,
    data: { name: "Pseudo CRM", redirect_uris: [redirectUri], allowed_scopes: ["conversations:read", "contacts:write"], client_type: "public" },
  });
  expect(app.status(), await app.text()).toBe(201);
  const authorize = `/oauth/authorize?${new URLSearchParams({
    client_id: (await app.json()).client_id as string,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "conversations:read contacts:write",
    state: "pseudo",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  })}`;
  return { contactId, authorize };
}

/** The visible text outside ⟦…⟧ of the page (markers may open in one text node and close in a later one). */
function strayText(page: Page) {
  return page.evaluate(() => {
    const skip = "[data-user-content], [translate='no'], time, script, style, noscript, template";
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const stray: string[] = [];
    let depth = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest(skip)) continue;
      // Shown: rendered, and not parked above the page (charting libraries measure text in a span at top: -20000px).
      const rect = parent.getBoundingClientRect();
      const shown = parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && parent.getClientRects().length > 0 && rect.bottom + window.scrollY > 0;
      let outside = "";
      for (const char of node.textContent ?? "") {
        if (char === "⟦") depth++;
        else if (char === "⟧") depth = Math.max(0, depth - 1);
        else if (depth === 0) outside += char;
      }
      if (shown && /\p{L}/u.test(outside)) stray.push(`${outside.trim()}  (in <${parent.tagName.toLowerCase()}${parent.className ? ` class="${String(parent.className).slice(0, 60)}"` : ""}>)`);
    }
    return stray;
  });
}

/** Whether the page scrolls sideways (it must not, at either width). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

async function pseudoPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: "chorus_pseudo_locale", value: "1", url: baseURL }]);
  return { context, page: await context.newPage() };
}

test.describe("pseudo-locale: campaigns, contacts, reports, docs and consent speak only catalog words", () => {
  let seeded: { contactId: string; authorize: string };
  test.beforeAll(async ({ request }) => {
    seeded = await seed(request);
  });

  const pages = (): Visit[] => [
    { path: "/contacts", ready: (page) => expect(page.locator("[data-contact-id]").first()).toBeVisible() },
    { path: `/contacts/${seeded.contactId}`, ready: (page) => expect(page.locator("textarea")).toBeVisible() },
    {
      path: "/campaigns",
      ready: (page) => expect(page.locator('input[type="file"]')).toBeVisible(),
      // The new-campaign form too: its labels, choices and buttons.
      then: async (page) => {
        await page.getByRole("button", { name: /New campaign/ }).click();
        await expect(page.locator('input[type="radio"]').first()).toBeVisible();
      },
    },
    {
      path: "/reports",
      ready: async (page) => {
        await expect(page.getByTestId("stat-csat")).toBeVisible();
        await expect(page.getByTestId("sla-attainment")).toBeVisible();
        await expect(page.getByTestId("spend-report").locator("table, p.text-slate-600").first()).toBeVisible();
      },
    },
    { path: "/docs", ready: (page) => expect(page.locator("#docs-webhooks")).toBeVisible() },
    { path: seeded.authorize, ready: (page) => expect(page.locator('button[value="allow"]')).toBeVisible() },
    { path: "/oauth/authorize?client_id=no-such-app", ready: (page) => expect(page.getByRole("alert").filter({ hasText: /\S/ })).toBeVisible() },
    { path: "/bad-request", ready: (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
  ];

  for (const viewport of viewports) {
    test(`${viewport.name}: these pages show no text the catalogs did not produce`, async ({ browser }) => {
      const { context, page } = await pseudoPage(browser, viewport);
      await signInAsOwner(page);
      const problems: string[] = [];
      for (const visit of pages()) {
        const name = visit.path.split("?")[0].split("/").filter(Boolean).slice(0, 2).join("-").replace(/^contacts-.+/, "contact") || "home";
        await page.goto(visit.path);
        await visit.ready(page);
        await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
        await page.waitForLoadState("networkidle");
        for (const text of await strayText(page)) problems.push(`${visit.path}: ${text}`);
        if (await sideways(page)) problems.push(`${visit.path}: scrolls sideways at ${viewport.width}px`);
        await page.screenshot({ path: shot(`pseudo-rest-${viewport.name}-${name}`), fullPage: true });
        if (visit.then) {
          await visit.then(page);
          for (const text of await strayText(page)) problems.push(`${visit.path} (after opening): ${text}`);
          await page.screenshot({ path: shot(`pseudo-rest-${viewport.name}-${name}-open`), fullPage: true });
        }
      }
      await context.close();
      expect(problems).toEqual([]);
    });
  }
});
