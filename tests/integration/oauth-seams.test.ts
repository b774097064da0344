import { NextRequest } from "next/server";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import * as appsRoute from "@/app/v1/apps/route";
import * as verifyRoute from "@/app/v1/auth/verify/route";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";
import { getEnv } from "@/lib/platform/env";
import { proxy } from "@/proxy";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";
import { oauthFetch, postConsent, postForm, sessionCookie } from "@/tests/support/oauth";
import { systemContext } from "@/lib/server/context";

const REDIRECT = "https://crm.example.com/callback";

async function registerApp(adminToken: string, patch: Record<string, unknown> = {}) {
  const res = await call(appsRoute.POST, {
    method: "POST",
    path: "/v1/apps",
    token: adminToken,
    body: { name: "Acme CRM", redirect_uris: [REDIRECT], allowed_scopes: ["conversations:read", "users:read"], ...patch },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; client_id: string; client_secret: string | null };
}

/** An app, a consent by its account's admin, and the code it sent back. */
async function codeFor(scope = "users:read") {
  const { admin, adminToken } = await createTestAccount();
  const app = await registerApp(adminToken);
  const verifier = oauth.generateRandomCodeVerifier();
  const check = await checkAuthorizeRequest(
    systemContext().db,
    { client_id: app.client_id, redirect_uri: REDIRECT, response_type: "code", scope, state: "st", code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" },
    { role: admin.role, accountId: admin.accountId },
  );
  if (!check.ok) throw new Error(check.message);
  const { cookie } = await sessionCookie(admin);
  const res = await postConsent({ cookie, consent: await signConsent(check.request, admin.id), decision: "allow" });
  expect(res.status).toBe(303);
  const code = new URL(res.headers.get("location")!).searchParams.get("code")!;
  const client = { client_id: app.client_id, client_secret: app.client_secret! };
  return { app, admin, client, base: { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, ...client } };
}

/** A raw POST to an OAuth endpoint: the body exactly as given. */
async function rawPost(path: string, body: string | Uint8Array, headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" }) {
  const res = await oauthFetch(`${getEnv().APP_URL}${path}`, { method: "POST", headers, body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

const url = (path: string) => `${getEnv().APP_URL}${path}`;

describe("authorization errors go back to the app only when it is the signed-in user's and the redirect URI is registered", () => {
  it("an app of another account: the error is shown on the page, never redirected (authorize and consent)", async () => {
    const { admin, adminToken } = await createTestAccount();
    const app = await registerApp(adminToken);
    const stranger = await createTestAccount();
    const params = { client_id: app.client_id, redirect_uri: REDIRECT, response_type: "code", scope: "users:read", state: "x", code_challenge: "a".repeat(43), code_challenge_method: "S256" };
    const foreign = await checkAuthorizeRequest(systemContext().db, params, { role: "admin", accountId: stranger.account.id });
    expect(foreign).toMatchObject({ ok: false, redirect: null, message: expect.stringMatching(/another Chorus account/) });
    // Even with its other parameters wrong (which would otherwise be redirected errors).
    expect(await checkAuthorizeRequest(systemContext().db, { ...params, response_type: "token" }, { role: "admin", accountId: stranger.account.id })).toMatchObject({ ok: false, redirect: null });

    // A consent form signed for the stranger (as if shown to them) is answered on the page too.
    const own = await checkAuthorizeRequest(systemContext().db, params, { role: admin.role, accountId: admin.accountId });
    if (!own.ok) throw new Error(own.message);
    const { cookie } = await sessionCookie(stranger.admin);
    const res = await postConsent({ cookie, consent: await signConsent(own.request, stranger.admin.id), decision: "deny" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toMatch(/another Chorus account/);
  });

  it("an app of the user's own account with a registered redirect URI gets its errors back", async () => {
    const { admin, adminToken } = await createTestAccount();
    const app = await registerApp(adminToken);
    const check = await checkAuthorizeRequest(
      systemContext().db,
      { client_id: app.client_id, redirect_uri: REDIRECT, response_type: "token", state: "x", code_challenge: "a".repeat(43), code_challenge_method: "S256" },
      { role: admin.role, accountId: admin.accountId },
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    const back = new URL(check.redirect!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: "unsupported_response_type", state: "x", iss: getEnv().APP_URL });
  });
});

describe("a refresh refused for its scope does not use up the refresh token", () => {
  it("asking for more than was granted is invalid_scope, and the same refresh token still works afterwards", async () => {
    const { base, client } = await codeFor("users:read");
    const first = await postForm("/oauth/token", base);
    expect(first.status).toBe(200);
    const wider = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token, scope: "users:read conversations:read", ...client });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe("invalid_scope");
    // Still valid: no reuse detected, the grant lives on.
    const again = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token, ...client });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.scope).toBe("users:read");
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: again.body.access_token })).status).toBe(200);
    // Narrowing to what was granted is fine.
    const same = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: again.body.refresh_token, scope: "users:read", ...client });
    expect(same.status).toBe(200);
  });
});

describe("NUL or malformed input on /oauth/* is a 400 invalid_request, never a 500, and changes nothing", () => {
  it("the token endpoint: malformed %-escapes, NUL in any parameter, bytes that are not UTF-8, garbage", async () => {
    const { base } = await codeFor();
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const bodies: (string | Uint8Array)[] = [
      `${form(base)}&x=%zz`,
      `${form(base)}&x=%`,
      `${form(base)}&x=%C3`,
      `${form(base)}&x=%ED%A0%80`,
      form({ ...base, client_id: `${base.client_id}\u0000` }),
      form({ ...base, code: `\u0000${base.code}` }),
      form({ ...base, grant_type: "authorization_code\u0000" }),
      form({ ...base, code_verifier: "\u0000" }),
      `${form(base)}&%00=1`,
      `${form(base).replace("grant_type", "grant%00type")}`,
      Buffer.concat([Buffer.from(`${form(base)}&x=`), Buffer.from([0xff, 0xfe, 0x00])]),
      Buffer.from([0x00, 0x01, 0x02, 0xc3, 0x28, 0xa0, 0xa1]),
    ];
    for (const body of bodies) {
      const res = await rawPost("/oauth/token", body);
      expect(res.status, `${String(body)} → ${res.text}`).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      expect(typeof res.body.error_description).toBe("string");
    }
    // Not form-encoded.
    for (const contentType of ["application/json", "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencodedx", ""]) {
      const res = await rawPost("/oauth/token", form(base), contentType ? { "content-type": contentType } : {});
      expect(res.status, contentType).toBe(400);
      expect(res.body.error).toBe("invalid_request");
    }
    // HTTP Basic credentials with a NUL or a malformed escape.
    for (const credentials of [`${base.client_id}%00:${base.client_secret}`, `${base.client_id}:%zz`, `\u0000:x`]) {
      const rest: Record<string, string> = { ...base };
      delete rest.client_id;
      delete rest.client_secret;
      const res = await rawPost("/oauth/token", form(rest), {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(credentials).toString("base64")}`,
      });
      expect(res.status, credentials).toBe(400);
      expect(res.body.error).toBe("invalid_request");
    }
    // None of that spent the code.
    expect((await postForm("/oauth/token", base)).status).toBe(200);
  });

  it("the revocation endpoint and the consent form", async () => {
    const { base, client, admin } = await codeFor();
    const tokens = await postForm("/oauth/token", base);
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    for (const body of [form({ token: `${tokens.body.refresh_token}\u0000`, ...client }), `${form({ token: tokens.body.refresh_token, ...client })}&token_type_hint=%G0`, Buffer.from([0xff])]) {
      const res = await rawPost("/oauth/revoke", body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_request");
    }
    expect((await call(verifyRoute.GET, { path: "/v1/auth/verify", token: tokens.body.access_token })).status).toBe(200);

    const { cookie } = await sessionCookie(admin);
    const origin = new URL(getEnv().APP_URL).origin;
    for (const [body, contentType] of [
      ["consent=%00&decision=allow", "application/x-www-form-urlencoded"],
      ["consent=%zz&decision=allow", "application/x-www-form-urlencoded"],
      ['{"consent":"x","decision":"allow"}', "application/json"],
      ["--x\r\nContent-Disposition: form-data; name=consent\r\n\r\nx\r\n--x--", "multipart/form-data; boundary=x"],
    ] as const) {
      const res = await rawPost("/oauth/consent", body, { "content-type": contentType, cookie, origin });
      expect(res.status, body).toBe(400);
      expect(res.body.error).toBe("invalid_request");
    }
  });

  it("a query string with a NUL or a malformed escape, on every /oauth/* path (the authorization page included)", async () => {
    const { app } = await codeFor();
    const good = `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`;
    for (const path of ["/oauth/authorize", "/oauth/token", "/oauth/revoke", "/oauth/consent"]) {
      for (const query of [`${good}&state=%00`, `${good.replace(app.client_id, `${app.client_id}%00`)}`, `${good}&state=%zz`, `${good}&state=%E0%80`, `%00=1&${good}`]) {
        const res = proxy(new NextRequest(url(`${path}?${query}`), { method: path === "/oauth/authorize" ? "GET" : "POST" }));
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.headers.get("location")).toBeNull();
        expect(await res.json()).toMatchObject({ error: "invalid_request" });
      }
      // A well-formed query goes on to the page or endpoint.
      expect(proxy(new NextRequest(url(`${path}?${good}`))).status).not.toBe(400);
    }
  });
});

describe("CORS for browser apps holding a token (never with cookies)", () => {
  const ORIGIN = "https://spa.example.net";

  it("a preflight to the token, revocation and metadata endpoints is a 204 allowing any origin, without credentials", async () => {
    for (const [path, method] of [
      ["/oauth/token", "POST"],
      ["/oauth/revoke", "POST"],
      ["/.well-known/oauth-authorization-server", "GET"],
    ] as const) {
      const res = proxy(
        new NextRequest(url(path), { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": method, "access-control-request-headers": "content-type, authorization" } }),
      );
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      expect(res.headers.get("access-control-allow-methods")).toContain(method);
      expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
      expect(res.headers.get("access-control-allow-headers")).toMatch(/Content-Type/);
      expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    }
  });

  it("answers from those endpoints carry Access-Control-Allow-Origin: * (the route handlers' own answers through the proxy)", async () => {
    for (const [path, method] of [
      ["/oauth/token", "POST"],
      ["/oauth/revoke", "POST"],
      ["/.well-known/oauth-authorization-server", "GET"],
    ] as const) {
      const res = proxy(new NextRequest(url(path), { method, headers: { origin: ORIGIN } }));
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
    // With no Origin too: the metadata is cacheable, and a copy cached for a server-side fetch
    // (no Origin) is what a browser app may get next.
    for (const [path, method] of [
      ["/oauth/token", "POST"],
      ["/.well-known/oauth-authorization-server", "GET"],
    ] as const) {
      const res = proxy(new NextRequest(url(path), { method }));
      expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    // A malformed request is refused with the CORS headers, so the browser app can read why.
    const bad = proxy(new NextRequest(url("/oauth/token?x=%00"), { method: "POST", headers: { origin: ORIGIN } }));
    expect(bad.status).toBe(400);
    expect(bad.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("/v1 with a bearer token: approved, with the headers an app needs to read; with a cookie only: no approval at all", async () => {
    const preflight = (requested: string) =>
      proxy(new NextRequest(url("/v1/conversations"), { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": requested } }));
    const ok = preflight("authorization, content-type, idempotency-key");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    expect(ok.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(ok.headers.get("access-control-allow-methods")).toMatch(/DELETE/);
    expect(ok.headers.get("access-control-allow-headers")).toMatch(/Idempotency-Key/);
    // A preflight that does not announce a bearer token is not approved (the route's 405 follows).
    const cookieOnly = preflight("content-type");
    expect(cookieOnly.status).not.toBe(204);
    expect(cookieOnly.headers.get("access-control-allow-origin")).toBeNull();

    const bearer = proxy(new NextRequest(url("/v1/conversations"), { headers: { origin: ORIGIN, authorization: "Bearer abc.def.ghi" } }));
    expect(bearer.headers.get("access-control-allow-origin")).toBe("*");
    expect(bearer.headers.get("access-control-allow-credentials")).toBeNull();
    const exposed = bearer.headers.get("access-control-expose-headers") ?? "";
    for (const header of ["X-Request-Id", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "WWW-Authenticate"]) expect(exposed).toContain(header);

    const cookie = proxy(new NextRequest(url("/v1/conversations"), { headers: { origin: ORIGIN, cookie: "authjs.session-token=x" } }));
    expect(cookie.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("an OPTIONS that is not a preflight is still the 405 it was", async () => {
    const res = proxy(new NextRequest(url("/oauth/token"), { method: "OPTIONS" }));
    expect(res.status).toBe(405);
  });
});
