import { expect, test } from "@playwright/test";
import { firstAdmin } from "./fixtures";

// On a slow connection the sign-in form is on screen, and people type into it, before the page's
// script has arrived. What they typed must survive the script taking over the form.
test("an email typed before the page's script has run is still there, and signs in, after it runs", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The page's script is held back until the email has been typed.
  let release: () => void = () => {};
  const typed = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/**/*.js", async (route) => {
    await typed;
    await route.continue();
  });
  await page.goto("/login", { waitUntil: "commit" });
  const email = page.getByLabel("Email");
  await email.waitFor();
  await email.fill(firstAdmin.email);
  release();
  // The form comes alive (React has taken over its element); then the password is typed, which
  // renders the form again.
  await page.waitForFunction(() => {
    const form = document.querySelector("form");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__react"));
  });
  await page.getByLabel("Password").fill(firstAdmin.password);
  await expect(email).toHaveValue(firstAdmin.email);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
  await context.close();
});
