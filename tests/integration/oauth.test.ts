import { eq } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import * as appById from "@/app/v1/apps/[id]/route";
import * as appsRoute from "@/app/v1/apps/route";
import * as refreshRoute from "@/app/v1/auth/refresh/route";
import * as verifyRoute from "@/app/v1/auth/verify/route";
import * as userById from "@/app/v1/users/[id]/route";
import * as usersRoute from "@/app/v1/users/route";
import { getDb } from "@/db";
import { oauthGrants } from "@/db/schema";
import type { Scope } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/platform/env";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";
import { listAuthorizedApps, revokeAuthorizedApp } from "@/lib/oauth/grants";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { oauthFetch, postConsent, postForm, sessionCookie } from "@/tests/support/oauth";
import { systemContext, verbContext } from "@/lib/server/context";

const REDIRECT = "https://crm.example.com/callback";
const options = { [oauth.customFetch]: oauthFetch, [oauth.allowInsecureRequests]: true } as const;

async function registerApp(adminToken: string, patch: Record<string, unknown> = {}) {
  const res = await call(appsRoute.POST, {
    method: "POST",
    path: "/v1/apps",
    token: adminToken,
    body: { name: "Acme CRM", redirect_uris: [REDIRECT, "http://localhost:8123/cb"], allowed_scopes: ["conversations:read", "users:read", "users:write"], ...patch },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; client_id: string; client_secret: string | null; client_type: string };
}

async function discover() {
  const issuer = new URL(getEnv().APP_URL);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
}

type Consent = { user: { id: string; accountId: string; role: "admin" | "agent" }; scope: string; redirectUri?: string; decision?: "allow" | "deny" };

/** What the browser does: open /oauth/authorize (checked like the page does), click Allow or Deny, follow the redirect. */
async function authorizeInBrowser(clientId: string, challenge: string, state: string, { user, scope, redirectUri = REDIRECT, decision = "allow" }: Consent) {
  const check = await checkAuthorizeRequest(
    systemContext().db,
    { client_id: clientId, redirect_uri: redirectUri, response_type: "code", scope, state, code_challenge: challenge, code_challenge_method: "S256" },
    { role: user.role, accountId: user.accountId },
  );
  if (!check.ok) throw new Error(check.message);
  const consent = await signConsent(check.request, user.id);
  const { cookie } = await sessionCookie(user);
  const res = await postConsent({ cookie, consent, decision });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

async function fullFlow({ adminToken, admin, scope = "conversations:read users:read" }: { adminToken: string; admin: Consent["user"]; scope?: string }) {
  const app = await registerApp(adminToken);
  const as = await discover();
  const client: oauth.Client = { client_id: app.client_id };
  const clientAuth = oauth.ClientSecretPost(app.client_secret!);
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  const state = oauth.generateRandomState();
  const callback = await authorizeInBrowser(app.client_id, challenge, state, { user: admin, scope });
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT, verifier, options);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  return { app, as, client, clientAuth, verifier, params, tokens };
}

describe("OAuth 2.0 with an unmodified client library (oauth4webapi)", () => {
  it("publishes RFC 8414 metadata", async () => {
    const as = await discover();
    expect(as).toMatchObject({
      issuer: getEnv().APP_URL,
      authorization_endpoint: `${getEnv().APP_URL}/oauth/authorize`,
      token_endpoint: `${getEnv().APP_URL}/oauth/token`,
      revocation_endpoint: `${getEnv().APP_URL}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
  });

  it("gets a scoped token through consent, uses it on /v1, refreshes with rotation and revokes", async () => {
    const { admin, adminToken } = await createTestAccount();
    const { app, as, client, clientAuth, tokens } = await fullFlow({ adminToken, admin });
    expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "conversations:read users:read" });
    const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ typ: "oauth", sub: admin.id, acc: admin.accountId });
    expect(claims.exp - claims.iat).toBe(3600);

    // The token works for its scopes and nothing else.
    const verified = await call(verifyRoute.GET, { path: "/v1/auth/verify", token: tokens.access_token });
    expect(verified.body).toMatchObject({ token_type: "oauth", permissions: ["conversations:read", "users:read"] });
    expect((await call(usersRoute.GET, { path: "/v1/users", token: tokens.access_token })).status).toBe(200);
    const denied = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: tokens.access_token, body: { name: "X", email: "x@example.com", role: "agent", password: "long enough pass" } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("insufficient_scope");
    // Apps renew at the token endpoint, not through /v1/auth/refresh.
    expect((await call(refreshRoute.POST, { method: "POST", path: "/v1/auth/refresh", token: tokens.access_token, body: {} })).status).toBe(403);

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, options));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: refreshed.access_token })).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, options));
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: refreshed.access_token })).status).toBe(401);
    const after = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: refreshed.refresh_token!, client_id: app.client_id, client_secret: app.client_secret! });
    expect(after.body).toMatchObject({ error: "invalid_grant" });
  });

  it("a public client uses PKCE alone", async () => {
    const { admin, adminToken } = await createTestAccount();
    const app = await registerApp(adminToken, { client_type: "public", name: "Desk app" });
    expect(app.client_secret).toBeNull();
    const as = await discover();
    const client: oauth.Client = { client_id: app.client_id };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await authorizeInBrowser(app.client_id, await oauth.calculatePKCECodeChallenge(verifier), state, { user: admin, scope: "users:read", redirectUri: "http://localhost:8123/cb" });
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, "http://localhost:8123/cb", verifier, options));
    expect(tokens.scope).toBe("users:read");
  });

  it("Deny sends the user back with error=access_denied and grants nothing", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const app = await registerApp(adminToken);
    const verifier = oauth.generateRandomCodeVerifier();
    const location = await authorizeInBrowser(app.client_id, await oauth.calculatePKCECodeChallenge(verifier), "s-1", { user: admin, scope: "users:read", decision: "deny" });
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: "access_denied", state: "s-1" });
    expect(location.searchParams.has("code")).toBe(false);
    expect(await getDb().select().from(oauthGrants).where(eq(oauthGrants.accountId, account.id))).toEqual([]);
  });
});

describe("the token endpoint refuses bad input with RFC 6749 errors, granting nothing", () => {
  async function codeFor() {
    const { admin, adminToken } = await createTestAccount();
    const app = await registerApp(adminToken);
    const verifier = oauth.generateRandomCodeVerifier();
    const location = await authorizeInBrowser(app.client_id, await oauth.calculatePKCECodeChallenge(verifier), "st", { user: admin, scope: "users:read" });
    const code = location.searchParams.get("code")!;
    const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: app.client_id, client_secret: app.client_secret! };
    return { app, admin, adminToken, verifier, code, base };
  }

  it("a wrong redirect_uri", async () => {
    const { base } = await codeFor();
    const res = await postForm("/oauth/token", { ...base, redirect_uri: "https://crm.example.com/other" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/redirect_uri/) });
    expect(res.body).not.toHaveProperty("access_token");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("a missing or wrong PKCE verifier", async () => {
    const { base } = await codeFor();
    const withoutVerifier: Record<string, string> = { ...base };
    delete withoutVerifier.code_verifier;
    const missing = await postForm("/oauth/token", withoutVerifier);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(/code_verifier/) });
    const wrong = await postForm("/oauth/token", { ...base, code_verifier: oauth.generateRandomCodeVerifier() });
    expect(wrong.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/code_verifier/) });
    // The code was spent by the failed attempt: the right verifier no longer helps.
    expect((await postForm("/oauth/token", base)).body.error).toBe("invalid_grant");
  });

  it("a reused code works once, and its reuse revokes what it granted", async () => {
    const { base } = await codeFor();
    const first = await postForm("/oauth/token", base);
    expect(first.status).toBe(200);
    const second = await postForm("/oauth/token", base);
    expect(second.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: first.body.access_token })).status).toBe(401);
  });

  it("a reused refresh token revokes the whole grant", async () => {
    const { base, app } = await codeFor();
    const first = await postForm("/oauth/token", base);
    const client = { client_id: app.client_id, client_secret: app.client_secret! };
    const rotated = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token, ...client });
    expect(rotated.status).toBe(200);
    const reused = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token, ...client });
    expect(reused.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    // The thief's copy and the legitimate one both stop working.
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: rotated.body.access_token })).status).toBe(401);
    const next = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, ...client });
    expect(next.body.error).toBe("invalid_grant");
  });

  it("a wrong client secret, an unknown client, a wrong grant type, a JSON body", async () => {
    const { base } = await codeFor();
    const wrongSecret = await postForm("/oauth/token", { ...base, client_secret: "nope" });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error).toBe("invalid_client");
    expect((await postForm("/oauth/token", { ...base, client_id: "chorus_unknown" })).body.error).toBe("invalid_client");
    expect((await postForm("/oauth/token", { ...base, grant_type: "password" })).body.error).toBe("unsupported_grant_type");
    const json = await oauthFetch(`${getEnv().APP_URL}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(base) });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe("invalid_request");
    // None of those spent the code.
    expect((await postForm("/oauth/token", base)).status).toBe(200);
  });

  it("HTTP Basic client authentication works and a GET is a 405", async () => {
    const { base } = await codeFor();
    const { client_id, client_secret, ...form } = base;
    const basic = Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`).toString("base64");
    const res = await postForm("/oauth/token", form, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    const get = await oauthFetch(`${getEnv().APP_URL}/oauth/token`);
    expect(get.status).toBe(405);
  });

  it("the authorization request is refused without a redirect for an unknown client or redirect URI or an app of another account, and with one otherwise", async () => {
    const { admin, adminToken } = await createTestAccount();
    const app = await registerApp(adminToken);
    const user = { role: admin.role, accountId: admin.accountId };
    const good = { client_id: app.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "users:read", state: "x", code_challenge: "a".repeat(43), code_challenge_method: "S256" };
    expect(await checkAuthorizeRequest(systemContext().db, { ...good, redirect_uri: "https://evil.example.com/cb" }, user)).toMatchObject({ ok: false, redirect: null });
    expect(await checkAuthorizeRequest(systemContext().db, { ...good, client_id: "nope" }, user)).toMatchObject({ ok: false, redirect: null });
    const noPkce = await checkAuthorizeRequest(systemContext().db, { ...good, code_challenge: undefined }, user);
    expect(noPkce.ok || new URL(noPkce.redirect!).searchParams.get("error")).toBe("invalid_request");
    const plain = await checkAuthorizeRequest(systemContext().db, { ...good, code_challenge_method: "plain" }, user);
    expect(plain.ok || new URL(plain.redirect!).searchParams.get("error")).toBe("invalid_request");
    const scope = await checkAuthorizeRequest(systemContext().db, { ...good, scope: "webhooks:delete" }, user);
    expect(scope.ok || new URL(scope.redirect!).searchParams.get("error")).toBe("invalid_scope");
    const other = await createTestAccount();
    // An app of another account is not the signed-in user's to authorise: shown on the page, never redirected.
    const foreign = await checkAuthorizeRequest(systemContext().db, good, { role: "admin", accountId: other.account.id });
    expect(foreign).toMatchObject({ ok: false, redirect: null });
  });
});

describe("granted scopes follow the user's role on every request", () => {
  it("an admin demoted to agent loses users:write on the app's token", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const second = await addTestUser(account.id, "admin");
    const { tokens } = await fullFlow({ adminToken, admin: second.user, scope: "users:read users:write" });
    expect(tokens.scope).toBe("users:read users:write");
    const body = { name: "Nia", email: `nia-${Date.now()}@example.com`, role: "agent", password: "long enough pass" };
    expect((await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: tokens.access_token, body })).status).toBe(201);
    await call(userById.PATCH, { method: "PATCH", path: `/v1/users/${second.user.id}`, token: adminToken, body: { role: "agent" }, params: { id: second.user.id } });
    const after = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: tokens.access_token, body: { ...body, email: `b-${body.email}` } });
    expect(after.status).toBe(403);
    expect(after.body.error.code).toBe("forbidden");
    const verified = await call(verifyRoute.GET, { path: "/v1/auth/verify", token: tokens.access_token });
    expect(verified.body.permissions).toEqual(["users:read"]);
    void admin;
  });

  it("an agent cannot be granted admin-only scopes at consent", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const { tokens } = await fullFlow({ adminToken, admin: agent.user, scope: "users:read users:write" });
    expect(tokens.scope).toBe("users:read");
  });
});

describe("apps and authorisations", () => {
  it("registers, lists and deletes apps (admin only), and deleting one ends its tokens", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const { app, tokens } = await fullFlow({ adminToken, admin });
    const list = await call(appsRoute.GET, { path: "/v1/apps", token: adminToken });
    expect(list.body.data).toEqual([expect.objectContaining({ id: app.id, client_id: app.client_id, client_type: "confidential" })]);
    expect(list.text).not.toContain("client_secret");
    expect((await call(appsRoute.GET, { path: "/v1/apps", token: agent.token })).status).toBe(403);
    expect((await call(appsRoute.POST, { method: "POST", path: "/v1/apps", token: agent.token, body: { name: "x", redirect_uris: [REDIRECT], allowed_scopes: ["users:read"] } })).status).toBe(403);
    const del = await call(appById.DELETE, { method: "DELETE", path: `/v1/apps/${app.id}`, token: adminToken, params: { id: app.id } });
    expect(del.status).toBe(204);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: tokens.access_token })).status).toBe(401);
    expect((await call(appById.DELETE, { method: "DELETE", path: `/v1/apps/${app.id}`, token: adminToken, params: { id: app.id } })).status).toBe(404);
  });

  it.each([
    ["an http redirect URI that is not localhost", { redirect_uris: ["http://crm.example.com/cb"] }, "redirect_uris.0"],
    ["a redirect URI with a fragment", { redirect_uris: ["https://crm.example.com/cb#x"] }, "redirect_uris.0"],
    ["an unknown scope", { allowed_scopes: ["everything"] }, "allowed_scopes.0"],
    ["no name", { name: "" }, "name"],
  ])("refuses %s with a 400 naming the field", async (_n, patch, field) => {
    const { adminToken } = await createTestAccount();
    const res = await call(appsRoute.POST, { method: "POST", path: "/v1/apps", token: adminToken, body: { name: "A", redirect_uris: [REDIRECT], allowed_scopes: ["users:read"], ...patch } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await call(appsRoute.GET, { path: "/v1/apps", token: adminToken })).body.data).toEqual([]);
  });

  it("a user lists the apps they authorised and revokes one", async () => {
    const { admin, adminToken } = await createTestAccount();
    const { app, tokens } = await fullFlow({ adminToken, admin });
    const ctx = verbContext({ accountId: admin.accountId, user: { id: admin.id, name: admin.name, email: admin.email, role: admin.role } });
    const listed = await listAuthorizedApps({ ctx });
    expect(listed).toEqual([expect.objectContaining({ app: expect.objectContaining({ id: app.id, name: "Acme CRM" }), scopes: ["conversations:read", "users:read"] as Scope[] })]);
    await revokeAuthorizedApp({ ctx, grantId: listed[0].id });
    expect(await listAuthorizedApps({ ctx })).toEqual([]);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: tokens.access_token })).status).toBe(401);
    const other = await createTestAccount();
    const otherCtx = verbContext({ accountId: other.account.id, user: { id: other.admin.id, name: "x", email: "x", role: "admin" as const } });
    await expect(revokeAuthorizedApp({ ctx: otherCtx, grantId: listed[0].id })).rejects.toMatchObject({ status: 404 });
  });
});
