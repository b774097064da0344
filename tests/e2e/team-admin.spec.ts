import { expect, type Page, test } from "@playwright/test";
import * as oauth from "oauth4webapi";
import { Secret, TOTP } from "otpauth";
import { baseURL } from "../../playwright.config";
import { shot } from "./fixtures";
import { adminApiToken, createTeammate, signIn, signInAsOwner } from "./helpers";

const CALLBACK = "http://localhost:9/callback";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

async function registerApp(request: Parameters<typeof adminApiToken>[0]) {
  const token = await adminApiToken(request);
  const res = await request.post("/v1/apps", {
    headers: { authorization: `Bearer ${token}` },
    data: { name: "Acme CRM", redirect_uris: [CALLBACK], allowed_scopes: ["conversations:read", "users:read"] },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { client_id: string; client_secret: string };
}

/** Opens the app's authorization URL in the browser and returns where the consent sent it back. */
async function consent(page: Page, url: URL, button: "Allow access" | "Deny", screenshot?: string) {
  let callback: URL | undefined;
  await page.route("http://localhost:9/**", async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/html", body: "<p>Back in the app</p>" });
  });
  await page.goto(url.toString());
  await expect(page.getByRole("heading", { name: "Allow Acme CRM to use Chorus?" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Requested permissions" })).toContainText("Read conversations");
  if (screenshot) await page.screenshot({ path: shot(screenshot), fullPage: true });
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByText("Back in the app")).toBeVisible();
  return callback!;
}

test("an integrator's app gets a scoped token through the consent page with oauth4webapi", async ({ page, request }) => {
  const app = await registerApp(request);
  const issuer = new URL(baseURL);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
  const client: oauth.Client = { client_id: app.client_id };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: CALLBACK,
    response_type: "code",
    scope: "conversations:read users:read",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();

  // Signed out, the authorization URL goes through sign-in first and comes back to the consent page.
  await page.goto(url.toString());
  await expect(page).toHaveURL(/\/login\?next=/);
  await signInAsOwner(page);
  const callback = await consent(page, url, "Allow access", "oauth-consent");

  const params = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretPost(app.client_secret), params, CALLBACK, verifier, insecure),
  );
  expect(tokens.scope).toBe("conversations:read users:read");
  const users = await request.get("/v1/users", { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(users.status()).toBe(200);
  const webhooks = await request.get("/v1/webhooks", { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(webhooks.status()).toBe(403);

  // The user sees the app in Settings → Account and removes it; the token stops working.
  await page.goto("/settings/account");
  const apps = page.getByRole("list", { name: "Apps you allowed" });
  await expect(apps).toContainText("Acme CRM");
  await apps.getByRole("button", { name: "Remove Acme CRM" }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove access" }).click();
  await expect.poll(async () => (await request.get("/v1/auth/verify", { headers: { authorization: `Bearer ${tokens.access_token}` } })).status()).toBe(401);
});

test("Deny on the consent page sends the app error=access_denied (phone width)", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const app = await registerApp(request);
  await signInAsOwner(page);
  const url = new URL("/oauth/authorize", baseURL);
  url.search = new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: CALLBACK,
    response_type: "code",
    scope: "conversations:read",
    state: "phone-state",
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: "S256",
  }).toString();
  const callback = await consent(page, url, "Deny", "oauth-consent-phone");
  expect(callback.searchParams.get("error")).toBe("access_denied");
  expect(callback.searchParams.get("state")).toBe("phone-state");
  expect(callback.searchParams.has("code")).toBe(false);
});

test("an unknown redirect_uri shows an error page and never redirects", async ({ page, request }) => {
  const app = await registerApp(request);
  await signInAsOwner(page);
  await page.goto(`/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent("https://evil.example.com/cb")}&response_type=code&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await expect(page.getByText("The redirect_uri is not one registered for this app.")).toBeVisible();
});

test("an admin registers an app in Settings → Apps and sees the secret once", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/apps");
  await page.getByRole("textbox", { name: "Name" }).fill("Helpdesk sync");
  await page.getByLabel("Redirect URIs").fill("https://helpdesk.example.com/oauth/callback");
  await page.getByRole("checkbox", { name: /Read conversations/ }).check();
  await page.getByRole("button", { name: "Register app" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Helpdesk sync is registered." })).toBeVisible();
  await expect(page.getByLabel("Client secret", { exact: true })).toHaveValue(/^chorus_secret_/);
  await page.screenshot({ path: shot("apps-registered"), fullPage: true });
  await page.reload();
  await expect(page.getByRole("list", { name: "Apps" })).toContainText("Helpdesk sync");
  await expect(page.getByLabel("Client secret", { exact: true })).toHaveCount(0);
});

test("an admin invites a teammate who joins through the link", async ({ page, browser }) => {
  await signInAsOwner(page);
  await page.goto("/settings/users");
  const email = `invited.${Date.now()}@greenleaf.example`;
  await page.getByLabel("Send the invitation to").fill(email);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const link = page.getByLabel("Link", { exact: true });
  await expect(link).toHaveValue(/\/invite\/chorus_invite_/);
  const url = await link.inputValue();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: shot("users-invite-phone"), fullPage: true });

  const guest = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const invitee = await guest.newPage();
  await invitee.goto(url);
  await expect(invitee.getByRole("heading", { name: "Join Green Leaf Plants" })).toBeVisible();
  await invitee.getByLabel("Your name").fill("Ivy Invited");
  await invitee.getByLabel("Password").fill("invited-password-1");
  await invitee.screenshot({ path: shot("invite-page-phone"), fullPage: true });
  await invitee.getByRole("button", { name: "Join the team" }).click();
  // Joining signs the new teammate in: they land in the inbox.
  await expect(invitee).toHaveURL(/\/inbox$/);
  await expect(invitee.getByRole("region", { name: "Conversations" })).toBeVisible();
  // The link works once.
  await invitee.goto(url);
  await expect(invitee.getByText("This invitation was already used.")).toBeVisible();
  await guest.close();
});

test("a teammate turns on two-factor sign-in and then signs in with a code", async ({ page, request }) => {
  const mate = await createTeammate(request, "agent", "Tom Totp");
  await signIn(page, mate.email, mate.password);
  await page.goto("/settings/account");
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  const totp = new TOTP({ issuer: "Chorus", label: mate.email, secret: Secret.fromBase32(secret) });
  await page.screenshot({ path: shot("account-2fa-setup"), fullPage: true });
  await page.getByLabel("Code from the app").fill(totp.generate());
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByRole("list", { name: "Recovery codes" });
  await expect(codes.getByRole("listitem")).toHaveCount(10);

  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("Email").fill(mate.email);
  await page.getByLabel("Password").fill(mate.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeVisible();
  await code.fill("000000" === totp.generate({ timestamp: Date.now() + 30_000 }) ? "111111" : "000000");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText("That code is wrong or was already used.")).toBeVisible();
  // The code of the next 30 s step: the one used to turn it on cannot sign in again.
  await page.getByLabel("Authentication code").fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
});

test("the audit log lists sign-ins and changes, filtered by action, at phone width", async ({ page }) => {
  await signInAsOwner(page);
  await page.goto("/settings/audit-log");
  const entries = page.getByRole("list", { name: "Audit log entries" });
  await expect(entries).toContainText("app: created");
  await page.getByLabel("What").selectOption("user.invited");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=user.invited/);
  await expect(entries.getByRole("listitem").first()).toContainText("user: invited");
  await page.screenshot({ path: shot("audit-log-desktop"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings/audit-log");
  await page.screenshot({ path: shot("audit-log-phone"), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
