import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

async function approvedTemplate(request: APIRequestContext, auth: Record<string, string>, name: string) {
  const created = await request.post("/v1/templates", {
    headers: auth,
    data: { name, language: "en_US", category: "MARKETING", components: { body: { text: "Hi {{1}}, the spring catalogue is here." } } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;
  await expect.poll(async () => (await (await request.get(`/v1/templates/${id}`, { headers: auth })).json()).status, { timeout: 15_000 }).toBe("APPROVED");
}

/** Nothing on the page is wider than the window. */
async function expectNoSideways(page: Page) {
  const overflow = await page.evaluate(() => {
    const main = document.querySelector("main")!;
    return Math.max(document.documentElement.scrollWidth - window.innerWidth, main.scrollWidth - main.clientWidth);
  });
  expect(overflow).toBeLessThanOrEqual(0);
}

async function createAndWatch(page: Page, { name, template, list, expected }: { name: string; template: string; list: string; expected: number }) {
  await page.getByRole("button", { name: "New campaign" }).click();
  const form = page.getByRole("form", { name: "New campaign" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Template").selectOption({ label: `${template} (en_US, marketing)` });
  await expect(form.getByLabel("Variable {{1}}")).toHaveValue("contact.name");
  await form.getByLabel("Attribute", { exact: true }).fill("list");
  await form.getByLabel("equals").fill(list);
  const preview = form.getByRole("region", { name: "Audience preview" });
  await expect(preview).toContainText(`${expected} of ${expected + 1} contacts will get it`);
  await expect(preview).toContainText("1 opted out");
  await expect(preview).toContainText(/Estimated cost: ≈ \d+\.\d\d EUR/);
  return form;
}

test("an admin imports customers, sends a campaign to those who agreed and watches it to the end, on desktop and phone", async ({ page, request }) => {
  const token = await adminApiToken(request);
  const auth = { authorization: `Bearer ${token}` };
  const n = Date.now() % 100000;
  const template = `spring_catalogue_${n}`;
  await approvedTemplate(request, auth, template);

  // Desktop: the import with a bad row, then the campaign.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsOwner(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  const desk = `desk${n}`;
  const csv = [
    "phone,name,list,marketing_opt_in",
    `+34 612 ${String(n).padStart(5, "0").slice(0, 3)} 001,Ana Desk,${desk},yes`,
    `+34 612 ${String(n).padStart(5, "0").slice(0, 3)} 002,Bea Desk,${desk},yes`,
    `call me maybe,Carla Desk,${desk},yes`,
    `+34 612 ${String(n).padStart(5, "0").slice(0, 3)} 003,Dora Desk,${desk},no`,
  ].join("\n");
  await page.getByLabel("CSV file").setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const importPreview = page.getByRole("region", { name: "Import preview" });
  await expect(importPreview).toContainText("customers.csv: 3 of 4 rows can be imported, 1 with problems.");
  await expect(importPreview.getByRole("list", { name: "Rows with problems" })).toContainText("Line 4 (phone)");
  await importPreview.getByRole("button", { name: "Import 3 contacts" }).click();
  await expect(importPreview).toContainText("Imported 3 contacts (3 new, 0 updated); 1 rows left out.");

  await createAndWatch(page, { name: `Spring desk ${n}`, template, list: desk, expected: 2 });
  await page.screenshot({ path: shot("campaign-create-desktop"), fullPage: true });
  await page.getByRole("button", { name: "Send now" }).click();
  const progress = page.getByRole("progressbar", { name: "Campaign progress" });
  await expect(progress).toBeVisible();
  await expect(page.locator('[data-count="sent"]')).toHaveText("2", { timeout: 20_000 });
  await expect(progress).toHaveAttribute("aria-valuenow", "100");
  await expect(page.getByText("done", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-count="skipped"]')).toHaveText("1");
  await page.getByLabel("Show").selectOption("skipped");
  await expect(page.getByRole("list", { name: "Recipients" })).toContainText("Dora Desk");
  await expect(page.getByRole("list", { name: "Recipients" })).toContainText("Opted out");
  await expect(page.getByRole("list", { name: "Recipients" })).not.toContainText("Ana Desk");
  await expectNoSideways(page);
  await page.screenshot({ path: shot("campaign-done-desktop"), fullPage: true });

  // Phone: contacts imported through the API, the same flow at 390×844.
  const phone = `phone${n}`;
  const imported = await request.post("/v1/contacts/import", {
    headers: auth,
    data: { csv: `phone,name,list,marketing_opt_in\n+351 912 ${String(n).padStart(5, "0").slice(0, 3)} 101,Eva Phone,${phone},yes\n+351 912 ${String(n).padStart(5, "0").slice(0, 3)} 102,Flor Phone,${phone},no\n` },
  });
  expect(imported.status()).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  await expectNoSideways(page);
  const form = await createAndWatch(page, { name: `Spring phone ${n}`, template, list: phone, expected: 1 });
  const send = form.getByRole("button", { name: "Send now" });
  expect((await send.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoSideways(page);
  await page.screenshot({ path: shot("campaign-create-phone"), fullPage: true });
  await send.click();
  await expect(page.locator('[data-count="sent"]')).toHaveText("1", { timeout: 20_000 });
  await expect(page.getByText("done", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expectNoSideways(page);
  await page.screenshot({ path: shot("campaign-done-phone"), fullPage: true });
  await page.getByRole("button", { name: "← All campaigns" }).click();
  await expect(page.getByRole("list", { name: "Campaigns" })).toContainText(`Spring phone ${n}`);
});
