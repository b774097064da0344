import { expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { signInAsOwner } from "./helpers";

/**
 * The Settings pages in the pseudo-locale: every visible text must come from a catalog (wrapped
 * in ⟦…⟧), or be marked as not the product's words (`data-user-content`, `translate="no"`), or
 * be only digits and punctuation. Checked at desktop and phone width. When the shared
 * `pseudo-locale.spec.ts` lists every page, these move into it.
 */
const TRANSLATED_SETTINGS_PAGES = [
  "/settings/labels",
  "/settings/inbox",
  "/settings/survey",
  "/settings/notifications",
  "/settings/canned-replies",
  "/settings/assistant",
  "/settings/tokens",
  "/settings/users",
  "/settings/audit-log",
  "/settings/webhooks",
  "/settings/teams",
  "/settings/templates",
  "/settings/number",
  "/settings/profile",
  "/settings/automations",
  "/settings/macros",
  "/settings/apps",
];

const viewports = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

/**
 * Visible text (and aria-labels, titles, placeholders) of the main area left once every marked
 * stretch is taken out. Text nodes are joined in document order first, since one catalog string
 * may hold a name or a link in the middle; what a person typed into a field is not looked at, and
 * a `<time>` holds a date the reader's locale formatted.
 */
async function strayText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skipped = (el: Element | null) =>
      !!el?.closest("[data-user-content], [translate='no'], script, style, noscript, template, textarea, time, [hidden], [aria-hidden='true']");
    const visible = (el: Element) => {
      const box = (el as HTMLElement).getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
    };
    const unmarked = (text: string) => {
      // Markers nest (a catalog string inside another): take out the innermost until none is left.
      let rest = text;
      for (let before = ""; before !== rest; ) {
        before = rest;
        rest = rest.replace(/⟦[^⟦⟧]*⟧/g, " ");
      }
      return rest;
    };
    const words = (text: string) => text.replace(/[\s\d\p{P}\p{S}]/gu, "");
    const root = document.querySelector("main") ?? document.body;
    const pieces: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent ?? "";
      if (!parent || !text.trim()) continue;
      // A skipped stretch stands for one word, so a marker around it still closes.
      pieces.push(skipped(parent) || !visible(parent) ? "\u0001" : text);
    }
    const found = unmarked(pieces.join(""))
      .split("\u0001")
      .map((piece) => piece.trim())
      .filter((piece) => words(piece));
    for (const el of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
      if (skipped(el) && el.tagName !== "TEXTAREA") continue;
      for (const attr of ["aria-label", "title", "placeholder"]) {
        const value = el.getAttribute(attr);
        if (value && words(unmarked(value))) found.push(`${attr}="${value.slice(0, 120)}"`);
      }
    }
    return [...new Set(found)].map((text) => text.slice(0, 160));
  });
}

test.describe("Settings pages speak only from the catalogs", () => {
  for (const viewport of viewports) {
    test(`at ${viewport.name} width`, async ({ page }) => {
      test.setTimeout(300_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await signInAsOwner(page);
      await page.context().addCookies([{ name: "chorus_pseudo_locale", value: "1", url: page.url() }]);
      for (const path of TRANSLATED_SETTINGS_PAGES) {
        await page.goto(path);
        await expect(page.locator("main h1").first()).toContainText("⟦");
        await page.waitForLoadState("networkidle");
        expect.soft(await strayText(page), `${path} at ${viewport.name}`).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow, `${path} scrolls sideways at ${viewport.name}`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: shot(`pseudo-${viewport.name}-${path.replaceAll("/", "-").slice(1)}`), fullPage: true });
      }
    });
  }
});

test.describe("the automation and macro builders speak only from the catalogs", () => {
  for (const viewport of viewports) {
    test(`at ${viewport.name} width`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await signInAsOwner(page);
      await page.context().addCookies([{ name: "chorus_pseudo_locale", value: "1", url: page.url() }]);
      await page.goto("/settings/automations");
      await page.getByRole("button", { name: "⟦New automation⟧" }).click();
      const form = page.getByRole("form", { name: "⟦New automation⟧" });
      // A condition with a typed attribute key and an action of each kind that has its own controls.
      await form.getByLabel("⟦Condition 1 field⟧").selectOption("attribute");
      for (const type of ["assign_user", "set_priority", "send_template", "add_note", "snooze"]) {
        await form.getByRole("button", { name: "⟦Add action⟧" }).click();
        await form.getByRole("combobox", { name: /^⟦Action \d+ type⟧$/ }).last().selectOption(type);
      }
      await form.getByRole("button", { name: "⟦Preview matches⟧" }).click();
      await expect(page.getByTestId("draft-preview")).not.toContainText("⟦Counting…⟧");
      expect.soft(await strayText(page), `automation builder at ${viewport.name}`).toEqual([]);
      await page.screenshot({ path: shot(`pseudo-${viewport.name}-automation-builder`), fullPage: true });

      await page.goto("/settings/macros");
      await page.getByRole("button", { name: "⟦New macro⟧" }).click();
      await expect(page.getByRole("form", { name: "⟦New macro⟧" })).toBeVisible();
      expect.soft(await strayText(page), `macro builder at ${viewport.name}`).toEqual([]);
      await page.screenshot({ path: shot(`pseudo-${viewport.name}-macro-builder`), fullPage: true });
    });
  }
});
