import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { adminApiToken, createTeammate, signIn, signInAsOwner } from "./helpers";
import { baseURL } from "../../playwright.config";
import { shot } from "./fixtures";

/*
 * The pseudo-locale pass: with every catalog string wrapped in ⟦…⟧ (the en-XA locale, switched on
 * by a cookie on the test server), a visible text the catalogs did not produce shows up outside
 * the markers. Skipped, as not the product's own words: anything inside `[data-user-content]`
 * (names, messages, emails: what people typed), `[translate="no"]` (the product's name, codes,
 * numbers) and `<time>` (dates and times written by Intl); text of only digits and punctuation.
 */

/**
 * Pages not translated yet: each is still English (and fails the pass). Whoever translates one
 * moves it from here into PAGES below. Settings pages are checked by
 * `pseudo-locale-settings.spec.ts`, and contacts, campaigns, reports, the guide, OAuth consent and
 * the bad-address page by `pseudo-locale-rest.spec.ts`.
 */
const UNTRANSLATED_PAGES: string[] = [];

/** What a page opens on top of itself (a dialog, a panel): checked too, then closed again. */
type Overlay = { name: string; open: (page: Page) => Promise<void>; close: (page: Page) => Promise<void> };
type Visit = { path: string; signedIn: boolean; ready: (page: Page) => Promise<void>; overlays?: Overlay[] };

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1440) < 768;

/** The composer's location dialog: on a phone its button sits behind the reply box's ⋯ menu. */
const locationDialog: Overlay = {
  name: "the location dialog",
  open: async (page) => {
    if (isPhone(page)) await page.getByRole("button", { name: /More options for the message/ }).click();
    await page.getByRole("button", { name: /^⟦Location⟧$/ }).click();
    await expect(page.locator("#send-location-title")).toBeVisible();
  },
  close: async (page) => {
    await page.keyboard.press("Escape");
    await expect(page.locator("#send-location-title")).toBeHidden();
  },
};

/** The template dialog, once its approved templates (or the lack of them) have loaded. */
const templateDialog: Overlay = {
  name: "the template dialog",
  open: async (page) => {
    if (isPhone(page) && !(await page.getByRole("button", { name: /^⟦Template⟧$/ }).isVisible())) await page.getByRole("button", { name: /More options for the message/ }).click();
    await page.getByRole("button", { name: /^⟦Template⟧$/ }).click();
    const dialog = page.locator("dialog[open]");
    await expect(dialog.locator("#send-template-title")).toBeVisible();
    await expect(dialog.locator("select, .bg-amber-50, [role=alert]").first()).toBeVisible();
  },
  close: async (page) => {
    await page.keyboard.press("Escape");
    await expect(page.locator("#send-template-title")).toBeHidden();
  },
};

/** The notifications panel of the list's bell. */
const notificationsPanel: Overlay = {
  name: "the notifications panel",
  open: async (page) => {
    await page.getByTestId("notifications-bell").click();
    const panel = page.getByRole("dialog", { name: /Notifications/ });
    await expect(panel).toBeVisible();
    await expect(panel.locator("ul[aria-busy=false]")).toBeAttached();
  },
  close: async (page) => {
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: /Notifications/ })).toBeHidden();
  },
};

const viewports = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

let run = 0;
const nextPhone = () => `4478${String(Date.now()).slice(-6)}${String(run++ % 100).padStart(2, "0")}`;

/** A conversation of the shared account with a customer's message, and an invitation link. */
async function seed(request: APIRequestContext) {
  const token = await adminApiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const inbound = await request.post("/api/sandbox/inbound", { headers, data: { from: nextPhone(), name: "Pseudo Customer", type: "text", text: "Hello, is my order on its way?" } });
  expect(inbound.status(), await inbound.text()).toBe(201);
  const invitation = await request.post("/v1/invitations", { headers, data: { email: `pseudo.${Date.now()}@greenleaf.example`, role: "agent" } });
  expect(invitation.status(), await invitation.text()).toBe(201);
  return { conversationId: (await inbound.json()).conversation_id as string, inviteUrl: (await invitation.json()).url as string };
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
      const shown = parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) && parent.getClientRects().length > 0;
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

async function pseudoPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: "chorus_pseudo_locale", value: "1", url: baseURL }]);
  return { context, page: await context.newPage() };
}

test.describe("pseudo-locale: every visible word comes from the catalogs", () => {
  // Six pages, each rendered and photographed, on a machine the other browser tests share.
  test.describe.configure({ timeout: 180_000 });
  let seeded: { conversationId: string; inviteUrl: string };
  test.beforeAll(async ({ request }) => {
    seeded = await seed(request);
  });

  const pages = (): Visit[] => [
    { path: "/login", signedIn: false, ready: (page) => expect(page.locator("form button[type=submit]")).toBeVisible() },
    { path: new URL(seeded.inviteUrl).pathname, signedIn: false, ready: (page) => expect(page.locator("form button[type=submit]")).toBeVisible() },
    { path: "/reset-password/chorus_reset_not-a-real-link", signedIn: false, ready: (page) => expect(page.getByRole("main").getByRole("alert")).toBeVisible() },
    {
      path: "/inbox",
      signedIn: true,
      ready: (page) => expect(page.locator(`[data-conversation-id="${seeded.conversationId}"]`)).toBeVisible(),
      overlays: [notificationsPanel],
    },
    {
      path: `/inbox/${seeded.conversationId}`,
      signedIn: true,
      ready: (page) => expect(page.getByTestId("thread").getByText("Hello, is my order on its way?")).toBeVisible(),
      overlays: [locationDialog, templateDialog],
    },
    { path: "/settings/account", signedIn: true, ready: (page) => expect(page.locator("#interface-language")).toBeVisible() },
    // The API references: the page's words are translated, the OpenAPI document's texts are marked English content.
    { path: "/docs/v1", signedIn: true, ready: (page) => expect(page.getByRole("heading", { level: 1 })).toContainText("Chorus API") },
    { path: "/docs/plant-store", signedIn: true, ready: (page) => expect(page.getByRole("heading", { level: 1 })).toContainText("Plant Store") },
    { path: "/no-such-page", signedIn: true, ready: (page) => expect(page.getByRole("heading", { level: 1 })).toBeVisible() },
  ];

  for (const viewport of viewports) {
    test(`${viewport.name}: the translated pages show no text the catalogs did not produce`, async ({ browser }) => {
      const { context, page } = await pseudoPage(browser, viewport);
      const problems: string[] = [];
      let signedIn = false;
      for (const visit of pages()) {
        if (visit.signedIn && !signedIn) {
          await signInAsOwner(page);
          signedIn = true;
        }
        await page.goto(visit.path);
        await visit.ready(page);
        // The pseudo-locale is on: the shell's own words are wrapped.
        await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
        await page.waitForLoadState("networkidle");
        for (const text of await strayText(page)) problems.push(`${visit.path}: ${text}`);
        const name = `pseudo-${viewport.name}-${visit.path.startsWith("/docs/") ? visit.path.slice(1).replace(/\//g, "-") : visit.path.split("/")[1] || "home"}${visit.path.includes("conv_") ? "-conversation" : ""}`;
        await page.screenshot({ path: shot(name), fullPage: true });
        for (const overlay of visit.overlays ?? []) {
          await overlay.open(page);
          for (const text of await strayText(page)) problems.push(`${visit.path}, ${overlay.name}: ${text}`);
          await page.screenshot({ path: shot(`${name}-${overlay.name.replace(/^the /, "").replace(/\W+/g, "-")}`) });
          await overlay.close(page);
        }
      }
      await context.close();
      expect(problems).toEqual([]);
    });
  }

  test("the two-factor set-up an account requires shows no text the catalogs did not produce", async ({ browser, request }) => {
    // An administrator with two-factor sign-in (set up in this session, so the session counts as
    // proven) requires it for everyone; the owner, without it, is then sent to the set-up page.
    const guard = await createTeammate(request, "admin", "Pseudo Guard");
    const guardContext = await browser.newContext();
    const guardPage = await guardContext.newPage();
    await signIn(guardPage, guard.email, guard.password);
    await guardPage.goto("/settings/account");
    await guardPage.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    const secret = (await guardPage.getByTestId("totp-secret").textContent())!.trim();
    await guardPage.getByLabel("Code from the app").fill(new TOTP({ issuer: "Chorus", label: guard.email, secret: Secret.fromBase32(secret) }).generate());
    await guardPage.getByRole("button", { name: "Turn on" }).click();
    await expect(guardPage.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await guardPage.goto("/settings/users");
    const requirement = guardPage.getByLabel("Require two-factor sign-in for everyone");

    const problems: string[] = [];
    const contexts = await Promise.all(viewports.map(async (viewport) => ({ viewport, ...(await pseudoPage(browser, viewport)) })));
    for (const { page } of contexts) await signInAsOwner(page);
    try {
      // A controlled box: it shows the change once the server has saved it.
      await requirement.click();
      await expect(requirement).toBeChecked();
      for (const { viewport, page } of contexts) {
        await page.goto("/inbox");
        await expect(page).toHaveURL(/\/login\/two-factor/);
        await expect(page.getByRole("button", { name: /Set up two-factor sign-in/ })).toBeVisible();
        await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
        for (const text of await strayText(page)) problems.push(`${viewport.name} /login/two-factor: ${text}`);
        await page.screenshot({ path: shot(`pseudo-${viewport.name}-login-two-factor`), fullPage: true });
      }
    } finally {
      // The shared account must not stay locked for the tests after this one.
      await guardPage.reload();
      if (await requirement.isChecked()) await requirement.click();
      await expect(requirement).not.toBeChecked();
      for (const { context } of contexts) await context.close();
      await guardContext.close();
    }
    expect(problems).toEqual([]);
  });

  test("the list of pages still to translate names real pages", () => {
    for (const path of UNTRANSLATED_PAGES) expect(path).toMatch(/^\/[a-z0-9/{}-]*$/);
  });
});
