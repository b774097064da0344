import http from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import * as oauth from "oauth4webapi";
import { baseURL } from "../../playwright.config";
import { firstAdmin, shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

// The third-party app lives on another origin than Chorus (another host and port), as a real
// integration does: its callback is a real HTTP server the browser navigates to.
// It listens on a port the system picks (free whatever else runs); its addresses follow from it.
let APP_ORIGIN = "";
let CALLBACK = "";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let thirdParty: http.Server;
/** The link the third-party app's home page offers ("Connect Chorus"). */
let connectUrl = "about:blank";
const callbacks: URL[] = [];

test.beforeAll(async () => {
  thirdParty = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", APP_ORIGIN);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    if (url.pathname === "/callback") {
      callbacks.push(url);
      res.end("<!doctype html><title>Acme CRM</title><h1>Back in the app</h1>");
      return;
    }
    const href = connectUrl.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
    res.end(`<!doctype html><title>Acme CRM</title><h1>Acme CRM</h1><a href="${href}">Connect Chorus</a>`);
  });
  await new Promise<void>((resolve, reject) => {
    thirdParty.once("error", reject);
    thirdParty.listen(0, "127.0.0.1", resolve);
  });
  APP_ORIGIN = `http://127.0.0.1:${(thirdParty.address() as AddressInfo).port}`;
  CALLBACK = `${APP_ORIGIN}/callback`;
});

test.afterAll(async () => {
  await new Promise((resolve) => thirdParty.close(resolve));
});

async function registerApp(request: APIRequestContext, clientType: "public" | "confidential") {
  const token = await adminApiToken(request);
  const res = await request.post("/v1/apps", {
    headers: { authorization: `Bearer ${token}` },
    data: { name: "Acme CRM", redirect_uris: [CALLBACK], allowed_scopes: ["conversations:read", "users:read"], client_type: clientType },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { client_id: string; client_secret: string | null };
}

/** What the app prepares with the client library: discovery, PKCE, state and the authorization URL. */
async function prepare(clientId: string) {
  const issuer = new URL(baseURL);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: CALLBACK,
    response_type: "code",
    scope: "conversations:read users:read",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  return { as, verifier, state, url };
}

/** On the consent page: Allow access, and the browser lands on the app's callback on its own origin. */
async function allow(page: Page, screenshot: string) {
  await expect(page.getByRole("heading", { name: "Allow Acme CRM to use Chorus?" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Requested permissions" })).toContainText("Read conversations");
  await page.screenshot({ path: shot(screenshot), fullPage: true });
  const before = callbacks.length;
  await page.getByRole("button", { name: "Allow access" }).click();
  await expect(page.getByRole("heading", { name: "Back in the app" })).toBeVisible();
  expect(page.url().startsWith(`${CALLBACK}?`)).toBe(true);
  expect(callbacks.length).toBe(before + 1);
  return new URL(page.url());
}

/** The rest of the app's side, all through the client library: code exchange, a call, refresh, revoke. */
async function finish(
  request: APIRequestContext,
  { as, client, auth, callback, state, verifier }: { as: oauth.AuthorizationServer; client: oauth.Client; auth: oauth.ClientAuth; callback: URL; state: string; verifier: string },
) {
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, params, CALLBACK, verifier, insecure));
  expect(tokens.token_type).toBe("bearer");
  expect(tokens.scope).toBe("conversations:read users:read");
  expect((await request.get("/v1/users", { headers: { authorization: `Bearer ${tokens.access_token}` } })).status()).toBe(200);

  const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure));
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect((await request.get("/v1/users", { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status()).toBe(200);

  // Revoking the refresh token ends the whole grant: the access token stops working too.
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure));
  await expect.poll(async () => (await request.get("/v1/users", { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status()).toBe(401);
  await expect(oauth.refreshTokenGrantRequest(as, client, auth, refreshed.refresh_token!, insecure).then((res) => oauth.processRefreshTokenResponse(as, client, res))).rejects.toThrow();
}

test("a person already signed in allows an app whose callback is on another origin (oauth4webapi, confidential client)", async ({ page, request }) => {
  const app = await registerApp(request, "confidential");
  const client: oauth.Client = { client_id: app.client_id };
  const { as, verifier, state, url } = await prepare(app.client_id);

  await signInAsOwner(page);
  connectUrl = url.toString();
  await page.goto(`${APP_ORIGIN}/`);
  await page.getByRole("link", { name: "Connect Chorus" }).click();
  const callback = await allow(page, "oauth-consent-signed-in");

  await finish(request, { as, client, auth: oauth.ClientSecretPost(app.client_secret!), callback, state, verifier });
});

test("a person signs in inside the flow, allows the app and lands on its other origin (oauth4webapi, public client)", async ({ browser, request }) => {
  const app = await registerApp(request, "public");
  expect(app.client_secret).toBeNull();
  const client: oauth.Client = { client_id: app.client_id, token_endpoint_auth_method: "none" };
  const { as, verifier, state, url } = await prepare(app.client_id);

  // A fresh browser: nobody is signed in to Chorus yet.
  const context = await browser.newContext();
  const page = await context.newPage();
  connectUrl = url.toString();
  await page.goto(`${APP_ORIGIN}/`);
  await page.getByRole("link", { name: "Connect Chorus" }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Foauth%2Fauthorize/);
  await page.getByLabel("Email").fill(firstAdmin.email);
  await page.getByLabel("Password").fill(firstAdmin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/oauth\/authorize\?/);
  const callback = await allow(page, "oauth-consent-after-sign-in");
  await context.close();

  await finish(request, { as, client, auth: oauth.None(), callback, state, verifier });
});

test("a NUL or a malformed %-escape on /oauth/* is a 400 invalid_request from the running server, never a 500", async ({ request }) => {
  for (const path of ["/oauth/authorize?client_id=%00", "/oauth/authorize?client_id=x&state=%zz", "/oauth/authorize?state=%E0%80", "/oauth/authorize?state=%", "/oauth/token?x=%zz"]) {
    const res = path.startsWith("/oauth/token") ? await request.post(path, { form: { grant_type: "refresh_token" } }) : await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  }
  for (const body of ["grant_type=refresh_token&client_id=%00", "grant_type=refresh_token&client_id=x&refresh_token=%G1", "client_id=\u0000"]) {
    const res = await request.post("/oauth/token", { headers: { "content-type": "application/x-www-form-urlencoded" }, data: body });
    expect(res.status(), body).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  }
});

test("a single-page app on another origin exchanges the code, calls /v1 and revokes with fetch (CORS), never with cookies", async ({ page, request }) => {
  const app = await registerApp(request, "public");
  const { as, verifier, state, url } = await prepare(app.client_id);
  await signInAsOwner(page);
  connectUrl = url.toString();
  await page.goto(`${APP_ORIGIN}/`);
  await page.getByRole("link", { name: "Connect Chorus" }).click();
  const callback = await allow(page, "oauth-consent-spa");
  expect(callback.searchParams.get("state")).toBe(state);

  // The page on the app's origin does what a browser client library does, with fetch.
  const result = await page.evaluate(
    async ({ metadataUrl, clientId, code, redirectUri, verifier }) => {
      const metadata = await (await fetch(metadataUrl)).json();
      const form = (fields: Record<string, string>) => ({
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
      const exchanged = await fetch(metadata.token_endpoint, form({ grant_type: "authorization_code", client_id: clientId, code, redirect_uri: redirectUri, code_verifier: verifier }));
      const tokens = await exchanged.json();
      const api = metadata.issuer + "/v1/users";
      const users = await fetch(api, { headers: { Authorization: `Bearer ${tokens.access_token}`, "Idempotency-Key": "not-needed-but-allowed" } });
      const exposed = { requestId: users.headers.get("x-request-id"), rateLimit: users.headers.get("ratelimit-remaining") };
      const refreshed = await (await fetch(metadata.token_endpoint, form({ grant_type: "refresh_token", client_id: clientId, refresh_token: tokens.refresh_token }))).json();
      const revoked = await fetch(metadata.revocation_endpoint, form({ client_id: clientId, token: refreshed.refresh_token }));
      const afterRevoke = await fetch(api, { headers: { Authorization: `Bearer ${refreshed.access_token}` } });
      // A request relying on the browser's cookies gets no CORS approval: the browser refuses it.
      const withCookies = await fetch(api, { credentials: "include" }).then(
        (res) => `answered ${res.status}`,
        () => "refused",
      );
      const cookieWrite = await fetch(metadata.issuer + "/v1/users", { method: "POST", credentials: "include", headers: { "Content-Type": "application/json" }, body: "{}" }).then(
        (res) => `answered ${res.status}`,
        () => "refused",
      );
      return {
        exchanged: exchanged.status,
        scope: tokens.scope,
        users: users.status,
        exposed,
        refreshed: typeof refreshed.access_token,
        revoked: revoked.status,
        afterRevoke: afterRevoke.status,
        withCookies,
        cookieWrite,
      };
    },
    { metadataUrl: `${baseURL}/.well-known/oauth-authorization-server`, clientId: app.client_id, code: callback.searchParams.get("code")!, redirectUri: CALLBACK, verifier },
  );
  expect(result).toMatchObject({ exchanged: 200, scope: "conversations:read users:read", users: 200, refreshed: "string", revoked: 200, afterRevoke: 401 });
  expect(result.exposed.requestId).toBeTruthy();
  expect(result.exposed.rateLimit).toMatch(/^\d+$/);
  expect(result.withCookies).toBe("refused");
  expect(result.cookieWrite).toBe("refused");
  expect(as.issuer).toBe(baseURL);
});
