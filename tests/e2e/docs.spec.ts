import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { signIn } from "./helpers";

test("signed-out visitors of an API reference go to /login", async ({ page }) => {
  await page.goto("/docs/plant-store");
  await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2Fplant-store/);
});

test("API docs in the navigation explain the APIs and open both references", async ({ page, request }) => {
  await signIn(page, firstAdmin.email, firstAdmin.password);
  await page.getByRole("link", { name: "API docs" }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { name: "API docs" })).toBeVisible();
  for (const section of ["Authentication", "Scopes", "Errors", "Pagination", "Webhooks"]) {
    await expect(page.getByRole("heading", { name: section })).toBeVisible();
  }
  await expect(page.getByLabel("Verifying a webhook signature in Node.js")).toContainText("x-service-signature");
  const axe = await new AxeBuilder({ page }).include("main").analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: shot("docs-index"), fullPage: true });

  for (const [name, url, document, title] of [
    ["Chorus API", /\/docs\/v1$/, "/v1/openapi.json", "Chorus API"],
    ["Plant Store API", /\/docs\/plant-store$/, "/plant-store/openapi.json", "Plant Store"],
  ] as const) {
    await page.goto("/docs");
    await page.getByRole("link", { name: `Open the ${name} reference` }).click();
    await expect(page).toHaveURL(url);
    // The viewer comes from a CDN; without it the page still points at the document.
    await expect(page.getByText(title).first().or(page.getByRole("link", { name: document }))).toBeVisible();
    const served = await request.get(document);
    expect(served.status()).toBe(200);
    expect((await served.json()).openapi).toBe("3.1.0");
  }
});
