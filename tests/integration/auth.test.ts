import { eq } from "drizzle-orm";
import { base64url, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as accountRoute from "@/app/v1/account/route";
import * as health from "@/app/v1/health/route";
import * as login from "@/app/v1/auth/login/route";
import * as refresh from "@/app/v1/auth/refresh/route";
import * as tokenById from "@/app/v1/auth/tokens/[id]/route";
import * as tokens from "@/app/v1/auth/tokens/route";
import * as verify from "@/app/v1/auth/verify/route";
import * as userById from "@/app/v1/users/[id]/route";
import * as usersRoute from "@/app/v1/users/route";
import { getDb, getDbHandle } from "@/db";
import { apiTokens, idempotencyKeys, jobs, webhookDeliveries, webhooks } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { and } from "drizzle-orm";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { apiRoute } from "@/lib/api/route";
import { deriveKey } from "@/lib/platform/crypto/keys";
import { roles, type Scope, scopes } from "@/lib/auth/scopes";
import { forgetCachedTokens } from "@/lib/auth/token-cache";
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from "@/lib/auth/tokens";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
/** One calendar year (UTC) from now, shifted by `ms`. */
const aYearFromNow = (ms = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return new Date(date.getTime() + ms).toISOString();
};

async function mintApiToken(sessionToken: string, permissions: string[], days = 30) {
  const res = await call(tokens.POST, {
    method: "POST",
    path: "/v1/auth/tokens",
    token: sessionToken,
    body: { name: "CI token", permissions, expires_at: inDays(days) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string; permissions: string[]; expires_at: string; created_at: string };
}

const apiTokensOf = (accountId: string) =>
  getDb().select().from(apiTokens).where(and(eq(apiTokens.accountId, accountId), eq(apiTokens.kind, "api")));

const verifyWith = (token: string) => call(verify.GET, { path: "/v1/auth/verify", token });

function expectInvalidToken(res: Awaited<ReturnType<typeof call>>) {
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe("invalid_token");
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
}

describe("sign-in with POST /v1/auth/login", () => {
  afterEach(() => resetRateLimiters());

  it("returns a 24 h session token and the user", async () => {
    const { admin } = await createTestAccount();
    const res = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: admin.email.toUpperCase(), password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "session", user: { id: admin.id, role: "admin" } });
    expect(res.text).not.toMatch(/password/i);
    const lifetime = new Date(res.body.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(DAY - 60_000);
    expect(lifetime).toBeLessThanOrEqual(DAY);
    expect((await verifyWith(res.body.token)).body).toMatchObject({ valid: true, token_type: "session" });
  });

  it("answers a wrong password and an unknown email with the same 401", async () => {
    const { admin } = await createTestAccount();
    const wrong = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: admin.email, password: "not the password" } });
    const unknown = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: "nobody@example.com", password: "not the password" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toEqual(unknown.body.error);
  });

  it("counts only failed attempts: a successful sign-in gives its point back", async () => {
    const { admin } = await createTestAccount();
    for (let i = 0; i < 15; i++) {
      const res = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: admin.email, password: TEST_PASSWORD } });
      expect(res.status).toBe(200);
    }
  });

  it("carries the sign-in budget in RateLimit headers on every answer; only failed attempts spend it", async () => {
    const { admin } = await createTestAccount();
    const headers = { "x-chorus-peer-address": "198.51.100.7" };
    const attempt = (body: unknown) => call(login.POST, { method: "POST", path: "/v1/auth/login", body, headers });
    const budget = (res: Awaited<ReturnType<typeof call>>) => [res.headers.get("ratelimit-limit"), res.headers.get("ratelimit-remaining")];

    const failed = await attempt({ email: admin.email, password: "wrong password!" });
    expect(failed.status).toBe(401);
    expect(budget(failed)).toEqual(["10", "9"]);
    expect(Number(failed.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const signedIn = await attempt({ email: admin.email, password: TEST_PASSWORD });
    expect(signedIn.status).toBe(200);
    expect(budget(signedIn)).toEqual(["10", "9"]);
    const malformed = await attempt({ email: admin.email });
    expect(malformed.status).toBe(400);
    expect(budget(malformed)).toEqual(["10", "9"]);
    const again = await attempt({ email: "nobody@example.com", password: "wrong password!" });
    expect(again.status).toBe(401);
    expect(budget(again)).toEqual(["10", "8"]);
  });

  it("limits failed attempts per address across emails", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await call(login.POST, {
        method: "POST",
        path: "/v1/auth/login",
        body: { email: `nobody-${i}@example.com`, password: "wrong password!" },
        // A client rotating X-Forwarded-For is still its one socket address (TRUSTED_PROXIES=0).
        headers: { "x-forwarded-for": `192.0.2.${i}, 198.18.0.${i}`, "x-chorus-peer-address": "203.0.113.9" },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("limits attempts per email with 429 and Retry-After", async () => {
    const { admin } = await createTestAccount();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i++) {
      last = await call(login.POST, {
        method: "POST",
        path: "/v1/auth/login",
        body: { email: admin.email, password: "wrong password!" },
        headers: { "x-chorus-peer-address": `10.0.0.${i}` },
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("API tokens", () => {
  it("are minted from a session, shown once, and work at once", async () => {
    const { adminToken } = await createTestAccount();
    const created = await mintApiToken(adminToken, ["conversations:read", "messages:write"]);
    expect(created).toMatchObject({ id: expect.stringMatching(/^tok_/), token_type: "api", permissions: ["conversations:read", "messages:write"] });
    const verified = await verifyWith(created.token);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      valid: true,
      token_type: "api",
      permissions: ["conversations:read", "messages:write"],
      expires_at: created.expires_at,
      created_at: created.created_at,
    });
    const list = await call(tokens.GET, { path: "/v1/auth/tokens", token: adminToken });
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({ id: created.id, revoked_at: null, token_type: "api" });
    expect(list.text).not.toContain(created.token);
    expect(list.body.data[0].token).toBeUndefined();
  });

  it("store only the token id, never the token", async () => {
    const { adminToken } = await createTestAccount();
    const created = await mintApiToken(adminToken, ["users:read"]);
    const [row] = await getDb().select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it("cannot be minted by an api token", async () => {
    const { adminToken } = await createTestAccount();
    const api = await mintApiToken(adminToken, ["users:read"]);
    const res = await call(tokens.POST, { method: "POST", path: "/v1/auth/tokens", token: api.token, body: { name: "x", permissions: ["users:read"], expires_at: inDays(10) } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("forbidden");
  });

  it("cannot carry scopes outside the creator's role", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const res = await call(tokens.POST, { method: "POST", path: "/v1/auth/tokens", token: agent.token, body: { name: "x", permissions: ["messages:read", "webhooks:write"], expires_at: inDays(10) } });
    expect(res.status).toBe(403);
    expect(res.body.error.details[0]).toMatchObject({ scope: "webhooks:write" });
    expect(await apiTokensOf(account.id)).toHaveLength(0);
  });

  it.each([
    ["an unknown scope", { permissions: ["messages:fly"] }, "permissions.0"],
    ["empty permissions", { permissions: [] }, "permissions"],
    ["permissions not a list", { permissions: "users:read" }, "permissions"],
    ["an expiry in the past", { expires_at: inDays(-1) }, "expires_at"],
    ["an expiry under one day", { expires_at: inDays(0.5) }, "expires_at"],
    ["an expiry beyond one year", { expires_at: inDays(400) }, "expires_at"],
    ["an expiry one year and one day away", { expires_at: aYearFromNow(DAY) }, "expires_at"],
    ["an expiry one year and two minutes away", { expires_at: aYearFromNow(2 * 60_000) }, "expires_at"],
    ["an expiry 23 hours away", { expires_at: inDays(23 / 24) }, "expires_at"],
    ["a non-ISO date", { expires_at: "next tuesday" }, "expires_at"],
    ["a date without time", { expires_at: "2027-01-01" }, "expires_at"],
    ["an empty name", { name: "" }, "name"],
    ["a name over 100 characters", { name: "n".repeat(101) }, "name"],
  ])("refuse %s with a 400 naming the field, creating nothing", async (_n, patch, field) => {
    const { account, adminToken } = await createTestAccount();
    const body = { name: "ok", permissions: ["users:read"], expires_at: inDays(30), ...patch };
    const res = await call(tokens.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await apiTokensOf(account.id)).toHaveLength(0);
  });

  it("accept the one-day and one-year bounds", async () => {
    const { adminToken } = await createTestAccount();
    await mintApiToken(adminToken, ["users:read"], 1.001);
    await mintApiToken(adminToken, ["users:read"], 365);
    const res = await call(tokens.POST, {
      method: "POST",
      path: "/v1/auth/tokens",
      token: adminToken,
      body: { name: "a year", permissions: ["users:read"], expires_at: aYearFromNow(-60_000) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("stop working at once when revoked, and revoking another account's token is a 404", async () => {
    const { adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const created = await mintApiToken(adminToken, ["users:read"]);
    const foreign = await call(tokenById.DELETE, { method: "DELETE", path: `/v1/auth/tokens/${created.id}`, token: other.adminToken, params: { id: created.id } });
    expect(foreign.status).toBe(404);
    const res = await call(tokenById.DELETE, { method: "DELETE", path: `/v1/auth/tokens/${created.id}`, token: adminToken, params: { id: created.id } });
    expect(res.status).toBe(204);
    expectInvalidToken(await verifyWith(created.token));
    const list = await call(tokens.GET, { path: "/v1/auth/tokens", token: adminToken });
    expect(list.body.data[0].revoked_at).not.toBeNull();
  });

  it("can be revoked by an api token only when it is that token; another id needs a session", async () => {
    const { adminToken } = await createTestAccount();
    const a = await mintApiToken(adminToken, ["users:read"]);
    const b = await mintApiToken(adminToken, ["users:read"]);
    const other = await call(tokenById.DELETE, { method: "DELETE", path: `/v1/auth/tokens/${b.id}`, token: a.token, params: { id: b.id } });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe("forbidden");
    expect(other.body.error.message).toMatch(/session/);
    expect((await verifyWith(b.token)).status).toBe(200);
    const self = await call(tokenById.DELETE, { method: "DELETE", path: `/v1/auth/tokens/${a.id}`, token: a.token, params: { id: a.id } });
    expect(self.status).toBe(204);
    expectInvalidToken(await verifyWith(a.token));
    const bySession = await call(tokenById.DELETE, { method: "DELETE", path: `/v1/auth/tokens/${b.id}`, token: adminToken, params: { id: b.id } });
    expect(bySession.status).toBe(204);
    expectInvalidToken(await verifyWith(b.token));
  });

  it("honour Idempotency-Key on creation", async () => {
    const { account, adminToken } = await createTestAccount();
    const body = { name: "once", permissions: ["users:read"], expires_at: inDays(30) };
    const headers = { "idempotency-key": "mint-1" };
    const a = await call(tokens.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body, headers });
    const b = await call(tokens.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body, headers });
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.token).toBe(a.body.token);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(await apiTokensOf(account.id)).toHaveLength(1);
    // Only the token id is stored, in the replay store too.
    const stored = await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, account.id));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(a.body.token);
  });
});

describe("refresh", () => {
  it("gives an api token a new token with the same permissions and lifetime, revoking the old one", async () => {
    const { adminToken } = await createTestAccount();
    const old = await mintApiToken(adminToken, ["users:read", "reports:read"], 10);
    const res = await call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: old.token, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "api", permissions: ["users:read", "reports:read"] });
    const oldLifetime = new Date(old.expires_at).getTime() - new Date(old.created_at).getTime();
    const newLifetime = new Date(res.body.expires_at).getTime() - new Date(res.body.created_at).getTime();
    expect(newLifetime).toBe(oldLifetime);
    expectInvalidToken(await verifyWith(old.token));
    expect((await verifyWith(res.body.token)).status).toBe(200);
  });

  it("of one api token twice at once mints one token; the other answer is 401 invalid_token", async () => {
    const { account, adminToken } = await createTestAccount();
    const old = await mintApiToken(adminToken, ["users:read"], 10);
    const send = () => call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: old.token, body: {} });
    // Both requests pass authentication before either writes, as they can on a server with
    // many connections: each waits at its transaction until the other arrives there too.
    const db = getDb();
    const transaction = db.transaction.bind(db);
    let arrived = 0;
    let bothArrived!: () => void;
    const barrier = new Promise<void>((resolve) => (bothArrived = resolve));
    const spy = vi.spyOn(db, "transaction").mockImplementation((async (...args: Parameters<typeof transaction>) => {
      if (++arrived === 2) bothArrived();
      await Promise.race([barrier, new Promise((resolve) => setTimeout(resolve, 2000))]);
      return transaction(...args);
    }) as typeof db.transaction);
    let results;
    try {
      results = await Promise.all([send(), send()]);
    } finally {
      spy.mockRestore();
    }
    expect(arrived).toBe(2);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expectInvalidToken(results.find((r) => r.status === 401)!);
    const rows = await apiTokensOf(account.id);
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.revokedAt === null)).toHaveLength(1);
    expect((await verifyWith(results.find((r) => r.status === 200)!.body.token)).status).toBe(200);
  });

  it("accepts {} as the body and gives a session a fresh 24 h token", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: adminToken, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("session");
    expect(new Date(res.body.expires_at).getTime() - new Date(res.body.created_at).getTime()).toBe(DAY);
  });
});

describe("invalid tokens are all 401 with WWW-Authenticate", () => {
  const claims = (accountId: string, userId: string, jti: string) => ({ acc: accountId, typ: "api", scope: "users:read", sub: userId, jti });

  it("revoked", async () => {
    const { adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    await getDb().update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, t.id));
    expectInvalidToken(await verifyWith(t.token));
  });

  it("deleted", async () => {
    const { adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    await getDb().delete(apiTokens).where(eq(apiTokens.id, t.id));
    expectInvalidToken(await verifyWith(t.token));
  });

  it("owned by a deleted user", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    await call(userById.DELETE, { method: "DELETE", path: `/v1/users/${agent.user.id}`, token: adminToken, params: { id: agent.user.id } });
    expectInvalidToken(await verifyWith(agent.token));
  });

  it("expired", async () => {
    const { admin, adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const expired = await new SignJWT(claims(admin.accountId, admin.id, t.id))
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(deriveKey("jwt"));
    expectInvalidToken(await verifyWith(expired));
  });

  it("expired after it was accepted: a token this process checked before is refused from its expiry on", async () => {
    const { admin, adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const exp = Math.floor(Date.now() / 1000) + 60;
    const shortLived = await new SignJWT(claims(admin.accountId, admin.id, t.id))
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(Math.floor(Date.now() / 1000))
      .setExpirationTime(exp)
      .sign(deriveKey("jwt"));
    expect((await verifyWith(shortLived)).status).toBe(200);
    expect((await verifyWith(shortLived)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(exp * 1000);
      const res = await verifyWith(shortLived);
      expectInvalidToken(res);
      expect(res.body.error.message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("tampered", async () => {
    const { adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const [header, payload, signature] = t.token.split(".");
    const body = JSON.parse(Buffer.from(payload, "base64url").toString());
    body.scope = "users:read users:write";
    expectInvalidToken(await verifyWith(`${header}.${base64url.encode(JSON.stringify(body))}.${signature}`));
  });

  it("alg=none", async () => {
    const { admin, adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const now = Math.floor(Date.now() / 1000);
    const header = base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }));
    const payload = base64url.encode(
      JSON.stringify({ ...claims(admin.accountId, admin.id, t.id), iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat: now, exp: now + 3600 }),
    );
    expectInvalidToken(await verifyWith(`${header}.${payload}.`));
  });

  it("signed with the wrong key", async () => {
    const { admin, adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const forged = await new SignJWT(claims(admin.accountId, admin.id, t.id))
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("some-other-secret-some-other-secret!!"));
    expectInvalidToken(await verifyWith(forged));
  });

  it("for another audience", async () => {
    const { admin, adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const forged = await new SignJWT(claims(admin.accountId, admin.id, t.id))
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(TOKEN_ISSUER)
      .setAudience("some-other-service")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(deriveKey("jwt"));
    expectInvalidToken(await verifyWith(forged));
  });

  it("malformed", async () => {
    expectInvalidToken(await verifyWith("not-a-jwt"));
    const res = await call(verify.GET, { path: "/v1/auth/verify", headers: { authorization: "Basic abc" } });
    expectInvalidToken(res);
  });

  it("missing: 401 unauthenticated, with the same invalid_token challenge", async () => {
    const res = await call(verify.GET, { path: "/v1/auth/verify" });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  });

  it("wrong sign-in credentials: 401 with the invalid_token challenge", async () => {
    const res = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: "nobody@example.com", password: "wrong password!" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  });
});

describe("verification cost", () => {
  it("takes one database round trip at most per request (the last-used stamp is written in the background)", async () => {
    const { adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    await verifyWith(t.token); // stamps last_used_at once
    await new Promise((r) => setTimeout(r, 50));
    const handle = getDbHandle();
    const client = (handle.pglite ?? handle.sql) as unknown as Record<string, (...args: unknown[]) => unknown>;
    // On PGlite every statement executed is one protocol call that starts with its Bind message.
    const method = handle.pglite ? "execProtocol" : "unsafe";
    const spy = vi.spyOn(client, method);
    const statements = () => (handle.pglite ? spy.mock.calls.filter(([message]) => (message as Uint8Array)[0] === 0x42).length : spy.mock.calls.length);
    try {
      // Token and user state not cached (another process, or the cache entry ran out): one round trip.
      forgetCachedTokens();
      expect((await verifyWith(t.token)).status).toBe(200);
      expect(statements()).toBe(1);
      // Cached: none.
      expect((await verifyWith(t.token)).status).toBe(200);
      expect(statements()).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("scopes and roles", () => {
  // One representative route per scope, through the same wrapper every /v1 route uses.
  const routeFor = (scope: Scope) => apiRoute({ access: { auth: "scope", scope } }, () => ({ ok: true }));
  const adminOnly = new Set(["conversations:delete", "messages:delete", "users:write", "users:delete", "webhooks:read", "webhooks:write", "webhooks:delete", "config:write", "audit:read", "apps:read", "apps:write", "teams:write"]);

  it.each(scopes.flatMap((scope) => roles.map((role) => [scope, role] as const)))(
    "%s for a session of an %s follows the scope table",
    async (scope, role) => {
      const { account, adminToken } = await createTestAccount();
      const token = role === "admin" ? adminToken : (await addTestUser(account.id, "agent")).token;
      const res = await call(routeFor(scope), { path: "/v1/x", token });
      const allowed = role === "admin" || !adminOnly.has(scope);
      expect(res.status).toBe(allowed ? 200 : 403);
      if (!allowed) {
        // A session holds what its role allows, so the role is what forbids it.
        expect(res.body.error.code).toBe("forbidden");
        expect(res.body.error.details[0].scope).toBe(scope);
      }
    },
  );

  it("a demoted admin's session on an admin route is 403 forbidden naming the scope", async () => {
    const { account, adminToken } = await createTestAccount();
    const second = await addTestUser(account.id, "admin");
    expect((await call(routeFor("users:write"), { path: "/v1/x", token: second.token })).status).toBe(200);
    const demote = await call(userById.PATCH, { method: "PATCH", path: `/v1/users/${second.user.id}`, token: adminToken, params: { id: second.user.id }, body: { role: "agent" } });
    expect(demote.status).toBe(200);
    const res = await call(routeFor("users:write"), { path: "/v1/x", token: second.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "forbidden", details: [{ scope: "users:write" }] });
  });

  it("a demoted admin's api token lacking an admin scope is 403 forbidden, not insufficient_scope", async () => {
    const { account, adminToken } = await createTestAccount();
    const second = await addTestUser(account.id, "admin");
    const t = await mintApiToken(second.token, ["users:read"]);
    await call(userById.PATCH, { method: "PATCH", path: `/v1/users/${second.user.id}`, token: adminToken, params: { id: second.user.id }, body: { role: "agent" } });
    const res = await call(routeFor("webhooks:read"), { path: "/v1/x", token: t.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "forbidden", details: [{ scope: "webhooks:read" }] });
  });

  it("an api token without the scope is 403 insufficient_scope naming it", async () => {
    const { adminToken } = await createTestAccount();
    const t = await mintApiToken(adminToken, ["users:read"]);
    const res = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: t.token, body: { name: "X", email: "x@example.com", role: "agent", password: TEST_PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "insufficient_scope", details: [{ scope: "users:write" }] });
  });

  it("a user demoted to agent loses admin powers on tokens they hold: 403 forbidden", async () => {
    const { account, adminToken } = await createTestAccount();
    const second = await addTestUser(account.id, "admin");
    const t = await mintApiToken(second.token, ["users:read", "users:write"]);
    expect((await call(usersRoute.GET, { path: "/v1/users", token: t.token })).status).toBe(200);
    const demote = await call(userById.PATCH, { method: "PATCH", path: `/v1/users/${second.user.id}`, token: adminToken, params: { id: second.user.id }, body: { role: "agent" } });
    expect(demote.status).toBe(200);
    const res = await call(usersRoute.POST, { method: "POST", path: "/v1/users", token: t.token, body: { name: "X", email: "x2@example.com", role: "agent", password: TEST_PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "forbidden", details: [{ scope: "users:write" }] });
    expect((await call(usersRoute.GET, { path: "/v1/users", token: t.token })).status).toBe(200);
  });
});

describe("health and account", () => {
  it("GET /v1/health reports the database and the jobs", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(health.GET, { path: "/v1/health", token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "ok",
      version: expect.any(String),
      checks: { database: { status: "ok", latency_ms: expect.any(Number) }, jobs: { status: "ok", backend: "local", due: 0, oldest_due_age_s: 0 } },
    });
    expect((await call(health.GET, { path: "/v1/health" })).status).toBe(401);
  });

  it("GET /v1/health counts only the caller's account's jobs", async () => {
    const mine = await createTestAccount();
    const other = await createTestAccount();
    const ago = (ms: number) => new Date(Date.now() - ms);
    await getDb()
      .insert(jobs)
      .values([
        { kind: "message.send", payload: {}, accountId: other.account.id, status: "pending", runAt: ago(10 * 60_000) },
        { kind: "message.send", payload: {}, accountId: other.account.id, status: "pending", runAt: ago(20 * 60_000) },
        { kind: "message.send", payload: {}, accountId: mine.account.id, status: "pending", runAt: ago(30_000) },
      ]);
    const res = await call(health.GET, { path: "/v1/health", token: mine.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.checks.jobs).toMatchObject({ status: "ok", due: 1 });
    expect(res.body.checks.jobs.oldest_due_age_s).toBeLessThan(120);
    const theirs = await call(health.GET, { path: "/v1/health", token: other.adminToken });
    expect(theirs.body.checks.jobs).toMatchObject({ status: "degraded", due: 2 });
  });

  it("GET /v1/health counts webhook deliveries due and not claimed (each is its own job)", async () => {
    const { account, adminToken } = await createTestAccount();
    const ago = (ms: number) => new Date(Date.now() - ms);
    const [webhook] = await getDb()
      .insert(webhooks)
      .values({ id: newId("webhook"), accountId: account.id, url: "https://hooks.example.com/a", events: ["*"], secret: "sealed", status: "active" })
      .returning();
    const delivery = (nextAttemptAt: Date | null, lockedUntil: Date | null, status: "pending" | "succeeded" = "pending") => ({
      id: newId("delivery"),
      accountId: account.id,
      webhookId: webhook.id,
      eventId: newId("event"),
      eventType: "message.received",
      payload: "{}",
      status,
      nextAttemptAt,
      lockedUntil,
    });
    await getDb()
      .insert(webhookDeliveries)
      .values([
        delivery(ago(10 * 60_000), null),
        delivery(ago(60_000), new Date(Date.now() + 30_000)),
        delivery(new Date(Date.now() + 60_000), null),
        delivery(null, null, "succeeded"),
      ]);
    const res = await call(health.GET, { path: "/v1/health", token: adminToken });
    expect(res.body.checks.jobs).toMatchObject({ status: "degraded", due: 1 });
    expect(res.body.checks.jobs.oldest_due_age_s).toBeGreaterThanOrEqual(600);
  });

  it("GET /v1/account describes the account and counts its users", async () => {
    const { account, adminToken } = await createTestAccount("Green Leaf");
    await addTestUser(account.id, "agent");
    await addTestUser(account.id, "agent");
    const res = await call(accountRoute.GET, { path: "/v1/account", token: adminToken });
    expect(res.body).toEqual({
      id: account.id,
      name: "Green Leaf",
      phone_number: null,
      number_status: "sandbox",
      coexistence: false,
      created_at: account.createdAt.toISOString(),
      users: { total: 3, admins: 1, agents: 2 },
    });
  });
});


