import { expect, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";
import { createTeammate, signIn } from "./helpers";

test("signed-out visitors of app pages go to /login", async ({ page }) => {
  await page.goto("/settings/tokens");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings%2Ftokens/);
});

test("an admin creates an API token in settings and it works against /v1/auth/verify", async ({ page, request }) => {
  await signIn(page, firstAdmin.email, firstAdmin.password);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("link", { name: "API tokens" }).click();
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();

  await page.getByLabel("Name").fill("Playwright token");
  await page.getByLabel("conversations:read").check();
  await page.getByLabel("messages:write").check();
  await page.getByLabel("Expires in").selectOption("7");
  await page.getByRole("button", { name: "Create token" }).click();

  const tokenBox = page.getByTestId("new-token");
  await expect(tokenBox).toBeVisible();
  await expect(page.getByText("It will not be shown again")).toBeVisible();
  const token = (await tokenBox.textContent())!.trim();
  await page.screenshot({ path: shot("tokens-created"), fullPage: true });

  const verify = await request.get("/v1/auth/verify", { headers: { authorization: `Bearer ${token}` } });
  expect(verify.status()).toBe(200);
  const body = await verify.json();
  expect(body).toMatchObject({ valid: true, token_type: "api", permissions: ["conversations:read", "messages:write"] });
  const days = (new Date(body.expires_at).getTime() - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThan(7.1);

  // The list shows it without the secret; revoking it stops it at once.
  await page.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row", { name: /Playwright token/ });
  await expect(row).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);
  await row.getByRole("button", { name: "Revoke Playwright token" }).click();
  await page.getByRole("dialog", { name: "Revoke this token?" }).getByRole("button", { name: "Revoke token" }).click();
  await expect(row.getByText("Revoked")).toBeVisible();
  const after = await request.get("/v1/auth/verify", { headers: { authorization: `Bearer ${token}` } });
  expect(after.status()).toBe(401);
});

test("an admin adds a teammate from Settings → Users", async ({ page }) => {
  await signIn(page, firstAdmin.email, firstAdmin.password);
  await page.goto("/settings/users");
  await page.getByLabel("Name").fill("Nora Newcomer");
  await page.getByLabel("Email").fill(`nora.${Date.now()}@greenleaf.example`);
  await page.getByLabel("Initial password").fill("short");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByText("must be at least 10 characters")).toBeVisible();
  await page.getByLabel("Initial password").fill("nora-password-1");
  await page.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByRole("list", { name: "Users" }).getByText("Nora Newcomer", { exact: true })).toBeVisible();
  await page.screenshot({ path: shot("users"), fullPage: true });
});

test("an agent sees no admin settings and cannot open them", async ({ page, request }) => {
  const agent = await createTeammate(request, "agent", "Sam Agent");
  await signIn(page, agent.email, agent.password);
  await page.goto("/settings/tokens");
  const settingsNav = page.getByRole("navigation", { name: "Settings" });
  await expect(settingsNav.getByRole("link", { name: "API tokens" })).toBeVisible();
  for (const adminPage of ["Users", "Webhooks", "Number"]) {
    await expect(settingsNav.getByRole("link", { name: adminPage })).toHaveCount(0);
  }
  // The token form offers only the agent's scopes.
  await expect(page.getByLabel("webhooks:write")).toHaveCount(0);
  await expect(page.getByLabel("messages:read")).toBeVisible();
  await page.screenshot({ path: shot("agent-settings"), fullPage: true });
  await page.goto("/settings/users");
  await expect(page.getByRole("heading", { name: "Administrators only" })).toBeVisible();
});

test("sign out everywhere ends the browser session and session tokens", async ({ page, request }) => {
  const teammate = await createTeammate(request, "agent", "Ola Outgoing");
  const login = await request.post("/v1/auth/login", { data: { email: teammate.email, password: teammate.password } });
  const sessionToken = (await login.json()).token;
  await signIn(page, teammate.email, teammate.password);
  await page.getByText("Account").click();
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login/);
  const after = await request.get("/v1/auth/verify", { headers: { authorization: `Bearer ${sessionToken}` } });
  expect(after.status()).toBe(401);
  await page.goto("/inbox");
  await expect(page).toHaveURL(/\/login/);
});
