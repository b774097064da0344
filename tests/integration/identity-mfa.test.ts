import * as oauth from "oauth4webapi";
import { Secret, TOTP } from "otpauth";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as loginRoute from "@/app/v1/auth/login/route";
import * as tokensRoute from "@/app/v1/auth/tokens/route";
import * as verifyRoute from "@/app/v1/auth/verify/route";
import * as usersRoute from "@/app/v1/users/route";
import * as appsRoute from "@/app/v1/apps/route";
import AuthorizePage from "@/app/oauth/authorize/page";
import * as auditRoute from "@/app/v1/audit-log/route";
import * as securityRoute from "@/app/v1/config/security/route";
import { confirmMfaEnrolment, setMfaRequirement, startMfaEnrolment } from "@/lib/auth/mfa";
import { requireSession } from "@/lib/server/session";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/request-hook";
import { getEnv } from "@/lib/platform/env";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { getDb } from "@/db";
import { recordEvent } from "@/lib/events/record-event";
import { call } from "@/tests/support/api";
import { openEventStream } from "@/tests/support/event-stream";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";
import { postConsent, postForm, sessionCookie } from "@/tests/support/oauth";
import { systemContext } from "@/lib/server/context";

// Pages read the browser's cookie and the page address (set by the proxy) from the request headers.
let pageHeaders = new Headers();
vi.mock("next/headers", () => ({ headers: async () => pageHeaders }));

const ctxOf = (user: { id: string; name: string; email: string; accountId: string }) => ({ accountId: user.accountId, user: { id: user.id, name: user.name, email: user.email }, ...systemContext() });
const codeAt = (secret: string, email: string, offsetSteps = 0) =>
  new TOTP({ issuer: "Chorus", label: email, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Where a page's requireSession sends the visitor (Next's redirect), or "rendered". */
async function pageOutcome(cookie: string, page = "/inbox/conv_1") {
  pageHeaders = new Headers({ cookie, "x-chorus-page": page });
  try {
    await requireSession();
    return "rendered";
  } catch (error) {
    const digest = (error as { digest?: string }).digest ?? "";
    if (!digest.startsWith("NEXT_REDIRECT")) throw error;
    return digest.split(";")[2];
  }
}

beforeEach(() => resetRateLimiters());

describe("an account that requires two-factor sign-in", () => {
  it("refuses every credential of a user who has not set it up: API session, cookie, API token, token creation, pages and OAuth consent", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const minted = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: agent.token, body: { name: "ci", permissions: ["conversations:read"], expires_at: inDays(3) } });
    expect(minted.status).toBe(201);
    const { cookie } = await sessionCookie(agent.user);
    // An app registered before the rule.
    const app = await call(appsRoute.POST, { method: "POST", path: "/v1/apps", token: adminToken, body: { name: "CRM", redirect_uris: ["https://crm.example.com/cb"], allowed_scopes: ["users:read"] } });
    expect(app.status).toBe(201);
    const check = await checkAuthorizeRequest(
      systemContext().db,
      { client_id: app.body.client_id, redirect_uri: "https://crm.example.com/cb", response_type: "code", scope: "users:read", state: "s", code_challenge: "x".repeat(43), code_challenge_method: "S256" },
      { role: "agent", accountId: account.id },
    );
    if (!check.ok) throw new Error(check.message);
    const consent = await signConsent(check.request, agent.user.id);

    await setMfaRequirement({ ctx: ctxOf(admin), required: true });

    for (const token of [agent.token, minted.body.token]) {
      const res = await call(verifyRoute.GET, { path: "/v1/auth/verify", token });
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.code).toBe("mfa_enrollment_required");
      expect(res.body.error.message).toMatch(/requires two-factor sign-in/);
    }
    const byCookie = await call(usersRoute.GET, { path: "/v1/users", headers: { cookie } });
    expect(byCookie.status).toBe(403);
    expect(byCookie.body.error.code).toBe("mfa_enrollment_required");
    const creation = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", headers: { cookie }, body: { name: "late", permissions: ["conversations:read"], expires_at: inDays(3) } });
    expect(creation.status).toBe(403);

    expect(await pageOutcome(cookie)).toBe(`/login/two-factor?next=${encodeURIComponent("/inbox/conv_1")}`);
    // The OAuth authorization page sends them to the set-up too, instead of showing the consent.
    const authorizeUrl = `/oauth/authorize?client_id=${app.body.client_id}&response_type=code`;
    pageHeaders = new Headers({ cookie, "x-chorus-page": authorizeUrl });
    const authorized = await AuthorizePage({ searchParams: Promise.resolve({ client_id: app.body.client_id, response_type: "code" }) }).catch((error: { digest?: string }) => error.digest ?? error);
    expect(authorized).toBe(`NEXT_REDIRECT;replace;/login/two-factor?next=${encodeURIComponent(authorizeUrl)};307;`);
    const consented = await postConsent({ cookie, consent, decision: "allow" });
    expect(consented.status).toBe(403);
    expect(consented.headers.get("location")).toBeNull();

    // The set-up page itself is reachable with that session; setting it up there lets it in.
    pageHeaders = new Headers({ cookie, "x-chorus-page": "/login/two-factor" });
    const session = await requireSession({ allowEnrolment: true });
    const { secret } = await startMfaEnrolment({ ctx: ctxOf(agent.user) });
    await confirmMfaEnrolment({ ctx: ctxOf(agent.user), code: codeAt(secret, agent.user.email), sessionId: session.token.id });
    expect(await pageOutcome(cookie)).toBe("rendered");
    expect((await call(usersRoute.GET, { path: "/v1/users", headers: { cookie } })).status).toBe(200);
    // The token minted before set-up was created by a session without the second factor (whoever
    // had only the password could have minted it): it stays refused, saying what to do.
    const stale = await call(verifyRoute.GET, { path: "/v1/auth/verify", token: minted.body.token });
    expect(stale.status).toBe(403);
    expect(stale.body.error.code).toBe("mfa_required");
    expect(stale.body.error.message).toMatch(/create a new token/);
    // A token created by the session that passed works.
    const fresh = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", headers: { cookie, origin: new URL(getEnv().APP_URL).origin }, body: { name: "after", permissions: ["conversations:read"], expires_at: inDays(3) } });
    expect(fresh.status, fresh.text).toBe(201);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: fresh.body.token })).status).toBe(200);
  });

  it("an API token or app authorized with only the password stays refused after its user sets up the second factor (refreshes included)", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const bob = await addTestUser(account.id, "agent");
    // The attacker has Bob's password: a session without a code, an API token, an app's tokens.
    const session = await call(loginRoute.POST, { method: "POST", path: "/v1/auth/login", headers: { [PEER_ADDRESS_HEADER]: "203.0.113.41" }, body: { email: bob.user.email, password: TEST_PASSWORD } });
    expect(session.status, session.text).toBe(200);
    const apiToken = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: session.body.token, body: { name: "mine now", permissions: ["conversations:read"], expires_at: inDays(30) } });
    expect(apiToken.status).toBe(201);
    const app = await call(appsRoute.POST, { method: "POST", path: "/v1/apps", token: adminToken, body: { name: "CRM", redirect_uris: ["https://crm.example.com/cb"], allowed_scopes: ["users:read"] } });
    const verifier = oauth.generateRandomCodeVerifier();
    const check = await checkAuthorizeRequest(
      systemContext().db,
      { client_id: app.body.client_id, redirect_uri: "https://crm.example.com/cb", response_type: "code", scope: "users:read", state: "s", code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" },
      { role: "agent", accountId: account.id },
    );
    if (!check.ok) throw new Error(check.message);
    const { cookie } = await sessionCookie(bob.user);
    const consented = await postConsent({ cookie, consent: await signConsent(check.request, bob.user.id), decision: "allow" });
    expect(consented.status).toBe(303);
    const code = new URL(consented.headers.get("location")!).searchParams.get("code")!;
    const client = { client_id: app.body.client_id, client_secret: app.body.client_secret };
    const issued = await postForm("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: "https://crm.example.com/cb", code_verifier: verifier, ...client });
    expect(issued.status).toBe(200);

    // The administrator requires two-factor sign-in; Bob sets it up and signs in with a code.
    await setMfaRequirement({ ctx: ctxOf(admin), required: true });
    const { secret } = await startMfaEnrolment({ ctx: ctxOf(bob.user) });
    await confirmMfaEnrolment({ ctx: ctxOf(bob.user), code: codeAt(secret, bob.user.email) });
    const withCode = await call(loginRoute.POST, {
      method: "POST",
      path: "/v1/auth/login",
      headers: { [PEER_ADDRESS_HEADER]: "203.0.113.41" },
      body: { email: bob.user.email, password: TEST_PASSWORD, otp: codeAt(secret, bob.user.email, 1) },
    });
    expect(withCode.status, withCode.text).toBe(200);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: withCode.body.token })).status).toBe(200);

    // None of the attacker's credentials works again.
    // A refresh still answers (the app learns of the refusal where it uses the token), carrying the grant's state.
    const renewed = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: issued.body.refresh_token, ...client });
    expect(renewed.status).toBe(200);
    for (const [token, says] of [
      [session.body.token, /sign in again/],
      [apiToken.body.token, /create a new token/],
      [issued.body.access_token, /authorize the app again/],
      [renewed.body.access_token, /authorize the app again/],
    ] as const) {
      const res = await call(usersRoute.GET, { path: "/v1/users", token });
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.code).toBe("mfa_required");
      expect(res.body.error.message).toMatch(says);
    }

    // Bob's own token, created by the session that passed, works; so does an app he authorizes again.
    const own = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: withCode.body.token, body: { name: "ci", permissions: ["conversations:read"], expires_at: inDays(3) } });
    expect(own.status).toBe(201);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: own.body.token })).status).toBe(200);
    const again = await checkAuthorizeRequest(
      systemContext().db,
      { client_id: app.body.client_id, redirect_uri: "https://crm.example.com/cb", response_type: "code", scope: "users:read", state: "s", code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" },
      { role: "agent", accountId: account.id },
    );
    if (!again.ok) throw new Error(again.message);
    const passedCookie = await sessionCookie(bob.user, { secondFactor: true });
    const reconsented = await postConsent({ cookie: passedCookie.cookie, consent: await signConsent(again.request, bob.user.id), decision: "allow" });
    expect(reconsented.status).toBe(303);
    const code2 = new URL(reconsented.headers.get("location")!).searchParams.get("code")!;
    const issued2 = await postForm("/oauth/token", { grant_type: "authorization_code", code: code2, redirect_uri: "https://crm.example.com/cb", code_verifier: verifier, ...client });
    expect(issued2.status).toBe(200);
    expect((await call(usersRoute.GET, { path: "/v1/users", token: issued2.body.access_token })).status).toBe(200);
    const renewed2 = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: issued2.body.refresh_token, ...client });
    expect(renewed2.status).toBe(200);
    expect((await call(usersRoute.GET, { path: "/v1/users", token: renewed2.body.access_token })).status).toBe(200);
  });

  it("a session opened without a code (before set-up elsewhere) signs in again; one opened with a code works", async () => {
    const { account, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const { cookie } = await sessionCookie(agent.user);
    const { secret } = await startMfaEnrolment({ ctx: ctxOf(agent.user) });
    await confirmMfaEnrolment({ ctx: ctxOf(agent.user), code: codeAt(secret, agent.user.email) });
    await setMfaRequirement({ ctx: ctxOf(admin), required: true });

    const old = await call(verifyRoute.GET, { path: "/v1/auth/verify", token: agent.token });
    expect(old.status).toBe(403);
    expect(old.body.error.code).toBe("mfa_required");
    expect(await pageOutcome(cookie)).toBe(`/login?next=${encodeURIComponent("/inbox/conv_1")}`);

    const signedIn = await call(loginRoute.POST, {
      method: "POST",
      path: "/v1/auth/login",
      headers: { [PEER_ADDRESS_HEADER]: "203.0.113.40" },
      body: { email: agent.user.email, password: TEST_PASSWORD, otp: codeAt(secret, agent.user.email, 1) },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: signedIn.body.token })).status).toBe(200);
    const minted = await call(tokensRoute.POST, { method: "POST", path: "/v1/auth/tokens", token: signedIn.body.token, body: { name: "ci", permissions: ["conversations:read"], expires_at: inDays(3) } });
    expect(minted.status).toBe(201);
  });
});

describe("GET/PUT /v1/config/security", () => {
  it("an administrator with two-factor sign-in requires it for everyone, audited; agents can neither read nor change it", async () => {
    const { account, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const { secret } = await startMfaEnrolment({ ctx: ctxOf(admin) });
    await confirmMfaEnrolment({ ctx: ctxOf(admin), code: codeAt(secret, admin.email) });
    const signedIn = await call(loginRoute.POST, {
      method: "POST",
      path: "/v1/auth/login",
      headers: { [PEER_ADDRESS_HEADER]: "203.0.113.41" },
      body: { email: admin.email, password: TEST_PASSWORD, otp: codeAt(secret, admin.email, 1) },
    });
    const token = signedIn.body.token;
    expect((await call(securityRoute.GET, { path: "/v1/config/security", token: agent.token })).status).toBe(403);
    expect((await call(securityRoute.PUT, { method: "PUT", path: "/v1/config/security", token: agent.token, body: { require_mfa: true } })).status).toBe(403);
    const bad = await call(securityRoute.PUT, { method: "PUT", path: "/v1/config/security", token, body: { require_mfa: true, extra: 1 } });
    expect(bad.status).toBe(400);

    const put = await call(securityRoute.PUT, { method: "PUT", path: "/v1/config/security", token, body: { require_mfa: true } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ require_mfa: true });
    expect((await call(securityRoute.GET, { path: "/v1/config/security", token })).body).toEqual({ require_mfa: true });
    // The agent, who has no second factor, is now refused everywhere.
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: agent.token })).body.error.code).toBe("mfa_enrollment_required");
    const log = await call(auditRoute.GET, { path: "/v1/audit-log?action=mfa.requirement_changed", token });
    expect(log.body.data).toEqual([expect.objectContaining({ action: "mfa.requirement_changed", actor: expect.objectContaining({ id: expect.anything() }), target: { type: "account", id: account.id } })]);
  });
});

describe("an event stream open when the account starts requiring two-factor sign-in", () => {
  it("ends for a user who has not set it up, and delivers nothing more", async () => {
    const { account, admin } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const stream = await openEventStream(agent.token);
    await setMfaRequirement({ ctx: ctxOf(admin), required: true });
    await getDb().transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId: account.id, type: "conversation.created", data: { n: 1 } }));
    expect(await stream.until(() => stream.ended(), 5_000)).toBe(true);
    expect(stream.events).toEqual([]);
    stream.close();
  });
});
