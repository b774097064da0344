import { expect, test } from "@playwright/test";
import { shot } from "./fixtures";
import { signInAsOwner } from "./helpers";
import { strayText } from "./pseudo";

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
