import { expect, test } from "@playwright/test";
import { makePdf } from "../support/pdf";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, createTeammate, signIn, signInAsOwner } from "./helpers";

test("an admin sets opening hours with a lunch break, sees the live preview, and they are saved", async ({ page, request }) => {
  await signInAsOwner(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings\/profile$/);
  await expect(page.getByRole("heading", { name: "Business profile" })).toBeVisible();

  await page.getByLabel("Description").fill("Houseplants, pots and soil. Delivery across Madrid in 48 h. Returns within 30 days.");
  const publish = page.getByLabel("Publish opening hours");
  if (!(await publish.isChecked())) await publish.check();

  await page.getByLabel("Search time zones").fill("madrid");
  await page.getByLabel("Time zone", { exact: true }).selectOption("Europe/Madrid");

  // Monday: morning and afternoon, with a lunch break.
  await page.getByLabel("Monday opening time 1").fill("09:00");
  await page.getByLabel("Monday closing time 1").fill("14:00");
  await page.getByRole("button", { name: "Add an interval on Monday" }).click();
  await page.getByLabel("Monday opening time 2").fill("16:00");
  await page.getByLabel("Monday closing time 2").fill("20:00");
  await page.getByRole("button", { name: "Copy Monday to Tuesday–Friday" }).click();
  await expect(page.getByLabel("Friday opening time 2")).toHaveValue("16:00");

  // An overlapping interval is pointed out in place, and saving waits until it is fixed.
  await page.getByRole("button", { name: "Add an interval on Wednesday" }).click();
  await page.getByLabel("Wednesday opening time 3").fill("19:00");
  await page.getByLabel("Wednesday closing time 3").fill("21:00");
  await expect(page.getByText("Overlaps 16:00–20:00 on the same day")).toBeVisible();
  await expect(page.getByTestId("hours-preview")).toContainText("Fix the highlighted hours");
  await page.getByRole("button", { name: "Remove Wednesday interval 3" }).click();

  await page.getByLabel("Open on Saturday").check();
  await page.getByLabel("Saturday opening time 1").fill("10:00");
  await page.getByLabel("Saturday closing time 1").fill("14:00");
  await expect(page.getByText("Closed", { exact: true })).toHaveCount(1); // Sunday

  await expect(page.getByTestId("hours-preview")).toContainText(/Open now|Closed now/);
  await expect(page.getByTestId("hours-preview")).toContainText("in Europe/Madrid");

  await page.getByLabel("Answer messages that arrive outside opening hours").check();
  await page.getByLabel("Outside-hours message").fill("¡Gracias por escribirnos! Ahora estamos cerrados.");
  await page.getByLabel("Answer questions about opening hours").check();

  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Business profile saved.")).toBeVisible();
  // The settings pane scrolls inside the window: a tall window shows all of it in one picture.
  await page.setViewportSize({ width: 1280, height: 2600 });
  await page.screenshot({ path: shot("profile-hours"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  const token = await adminApiToken(request);
  const res = await request.get("/v1/config/business-profile", { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  const profile = await res.json();
  expect(profile.hours.timezone).toBe("Europe/Madrid");
  expect(profile.hours.weekly.mon).toEqual([{ open: "09:00", close: "14:00" }, { open: "16:00", close: "20:00" }]);
  expect(profile.hours.weekly.wed).toEqual(profile.hours.weekly.mon);
  expect(profile.hours.weekly.sat).toEqual([{ open: "10:00", close: "14:00" }]);
  expect(profile.hours.weekly.sun).toEqual([]);
  expect(profile.auto_reply).toEqual({ outside_hours: { enabled: true, message: "¡Gracias por escribirnos! Ahora estamos cerrados." }, hours_question: { enabled: true } });

  await page.reload();
  await expect(page.getByLabel("Monday closing time 1")).toHaveValue("14:00");
  await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("Europe/Madrid");
});

test("an admin uploads a PDF with progress, sees its size and pages, and deletes it", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/profile");

  await page.locator("#document-upload").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a pdf") });
  await expect(page.getByText("“notes.txt” is not a PDF")).toBeVisible();

  // Holding the answer back keeps the progress bar on screen long enough to be seen.
  await page.route("**/v1/config/documents", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const pdf = makePdf(["Green Leaf price list: Monstera 25 EUR", "Returns accepted within 30 days"], { padTo: 5000 });
  await page.locator("#document-upload").setInputFiles({ name: "price-list.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  const row = page.getByRole("row", { name: /price-list\.pdf/ });
  await expect(row).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toHaveCount(0);
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await expect(row).toContainText("4.9 KB");
  await expect(row).toContainText("characters");
  await expect(page.getByText("“price-list.pdf” added: 2 pages, text extracted.")).toBeVisible();
  await page.unroute("**/v1/config/documents");

  await row.getByRole("button", { name: "Delete price-list.pdf" }).click();
  await page.getByRole("dialog", { name: "Delete “price-list.pdf”?" }).getByRole("button", { name: "Delete document" }).click();
  await expect(row).toHaveCount(0);
});

test("an agent reads the business profile but cannot change it", async ({ page, request }) => {
  const agent = await createTeammate(request, "agent", "Rita Reader");
  await signIn(page, agent.email, agent.password);
  await page.goto("/settings/profile");
  await expect(page.getByText("Only administrators can change the business profile.")).toBeVisible();
  await expect(page.getByLabel("Business name")).toBeDisabled();
  await expect(page.getByLabel("Business name")).toHaveValue(firstAdmin.accountName);
  await expect(page.getByRole("button", { name: "Save profile" })).toHaveCount(0);
  await expect(page.getByText("Upload PDF")).toHaveCount(0);
  await page.screenshot({ path: shot("profile-agent"), fullPage: true });
});

test("the Polish menu previews three different styles of a reply and applies the chosen one", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/profile");
  const sample = page.getByLabel("Sample reply");
  await sample.fill("hola q tal, tu pedido #4521 sale mañana xq ayer no llego el camion. cualquier cosa me dices");
  await page.getByRole("button", { name: "Polish" }).click();
  const menu = page.getByRole("dialog", { name: "Polish the reply" });
  await expect(menu).toBeVisible();

  const preview = menu.locator("[aria-live]");
  const previews: Record<string, string> = {};
  for (const style of ["Concise", "Normal", "Explanatory"]) {
    await menu.getByRole("radio", { name: style }).click();
    await expect(preview).not.toContainText("Polishing…");
    previews[style] = (await preview.textContent()) ?? "";
  }
  expect(new Set(Object.values(previews)).size).toBe(3);
  expect(previews.Normal).toContain("porque");
  expect(previews.Normal).toContain("#4521");
  expect(previews.Concise.length).toBeLessThan(previews.Normal.length);
  expect(previews.Explanatory).toContain(`gracias por contactar con ${firstAdmin.accountName}`);
  await page.screenshot({ path: shot("polish-menu") });

  await menu.getByRole("button", { name: "Use this" }).click();
  await expect(menu).toHaveCount(0);
  await expect(sample).toHaveValue(previews.Explanatory);
});
