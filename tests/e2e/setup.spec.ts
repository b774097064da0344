import { expect, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";

test("first run: /setup creates the account and its first administrator", async ({ page, request }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Set up Chorus" })).toBeVisible();

  // A weak password is refused in place, and nothing is created.
  await page.getByLabel("Business name").fill(firstAdmin.accountName);
  await page.getByLabel("Your name").fill(firstAdmin.name);
  await page.getByLabel("Email").fill(firstAdmin.email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("must be at least 10 characters")).toBeVisible();
  await expect(page).toHaveURL(/\/setup$/);

  await page.getByLabel("Password").fill(firstAdmin.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // Set-up signs the new administrator in: they land in the inbox.
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByRole("region", { name: "Conversations" })).toBeVisible();
  await page.screenshot({ path: shot("after-setup"), fullPage: true });

  // Setup happens once.
  const again = await request.post("/api/setup", {
    data: { account_name: "Other", name: "Other", email: "other@example.com", password: "another-password" },
  });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.code).toBe("conflict");
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/inbox$/);
});
