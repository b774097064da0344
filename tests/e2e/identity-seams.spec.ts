import { expect, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { adminApiToken, createTeammate, signInAsOwner } from "./helpers";

// Addresses a browser would read as another site: a backslash (read as `/`), a TAB or line
// break (dropped), a doubled slash, and any scheme.
const foreignNexts = ["/\\evil.example", "/%5Cevil.example", "/%09/evil.example", "//evil.example", "/\t/evil.example", "javascript:alert(1)", "https://evil.example/inbox"];

test("after signing in, next leads only to a page of this app", async ({ page, request }) => {
  const agent = await createTeammate(request, "agent", "Nadia Next");
  // Signing in from a link that carries a foreign next.
  await page.goto(`/login?next=${encodeURIComponent("/\\evil.example")}`);
  await page.getByLabel("Email").fill(agent.email);
  await page.getByLabel("Password").fill(agent.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/inbox`);

  // Already signed in: the sign-in page sends the person on at once.
  for (const next of foreignNexts) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await expect(page, next).toHaveURL(`${baseURL}/inbox`);
  }
  // A path of the app is kept.
  await page.goto(`/login?next=${encodeURIComponent("/settings/account")}`);
  await expect(page).toHaveURL(`${baseURL}/settings/account`);
});

test("a signed-out visit to a doubled-slash address is sent to sign in with a safe next", async ({ page }) => {
  await page.goto("/login");
  for (const next of foreignNexts) {
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await expect(page.locator('input[name="next"]')).toHaveValue("/inbox");
  }
});

test("a wrong code while turning on two-factor sign-in is one clear sentence", async ({ page, request }) => {
  const agent = await createTeammate(request, "agent", "Otto Otp");
  await page.goto("/login");
  await page.getByLabel("Email").fill(agent.email);
  await page.getByLabel("Password").fill(agent.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
  await page.goto("/settings/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  const alert = page.getByRole("alert").filter({ hasText: /code/i });
  await expect(alert).toHaveText("The code does not match your authenticator app: enter the code it shows now.");
});

test("an administrator resends and revokes pending invitations in Settings → Users", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/users");
  const stamp = Date.now();
  for (const email of [`keep.${stamp}@greenleaf.example`, `drop.${stamp}@greenleaf.example`]) {
    await page.getByLabel("Send the invitation to").fill(email);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await expect(page.getByText(`Invitation for ${email}`)).toBeVisible();
  }
  const pending = page.getByRole("list", { name: "Pending invitations" });
  await expect(pending.getByText(`keep.${stamp}@greenleaf.example`)).toBeVisible();
  await expect(pending.getByText(`drop.${stamp}@greenleaf.example`)).toBeVisible();

  await page.getByRole("button", { name: `Resend the invitation for keep.${stamp}@greenleaf.example` }).click();
  await expect(page.getByText(`New invitation link for keep.${stamp}@greenleaf.example`)).toBeVisible();
  const link = await page.getByLabel("Link", { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/chorus_invite_/);

  await page.getByRole("button", { name: `Revoke the invitation for drop.${stamp}@greenleaf.example` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke the invitation for drop.${stamp}@greenleaf.example?` });
  await dialog.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(pending.getByText(`drop.${stamp}@greenleaf.example`)).toHaveCount(0);
  await expect(pending.getByText(`keep.${stamp}@greenleaf.example`)).toBeVisible();

  // The resent link works for the invited person.
  const invitee = await page.context().browser()!.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: "Join Green Leaf Plants" })).toBeVisible();
  await invitee.close();
});

test("signing in again after the session ended returns to the open conversation, its draft kept", async ({ browser, request }) => {
  const agent = await createTeammate(request, "agent", "Rita Return");
  const name = `Dora Draft ${Date.now() % 100000}`;
  const inbound = await request.post("/api/sandbox/inbound", {
    headers: { authorization: `Bearer ${await adminApiToken(request)}` },
    data: { from: `1555${String(Date.now()).slice(-7)}`, name, type: "text", text: "Is the fern back in stock?" },
  });
  expect(inbound.status()).toBe(201);
  const conversationId = (await inbound.json()).conversation_id as string;

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(agent.email);
  await page.getByLabel("Password").fill(agent.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
  await page.goto(`/inbox/${conversationId}`);
  await expect(page.getByRole("log", { name: `Messages with ${name}` })).toContainText("fern");
  await page.getByLabel("Reply").fill("Half-written answer about the fern");

  // The session ends: the agent changes their password from another device.
  const elsewhere = await request.post("/v1/auth/login", { data: { email: agent.email, password: agent.password } });
  const newPassword = "teammate-password-2";
  const changed = await request.post("/v1/auth/password", {
    headers: { authorization: `Bearer ${(await elsewhere.json()).token}` },
    data: { current_password: agent.password, new_password: newPassword },
  });
  expect(changed.status()).toBe(204);

  await page.reload();
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel("Email").fill(agent.email);
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/inbox/${conversationId}`);
  await expect(page.getByLabel("Reply")).toHaveValue("Half-written answer about the fern");
  await context.close();
});
