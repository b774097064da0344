import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import * as catchAll from "@/app/v1/[...path]/route";
import * as openapi from "@/app/v1/openapi.json/route";
import { getDb } from "@/db";
import { apiTokens, idempotencyKeys, users } from "@/db/schema";
import { ABANDONED_CLAIM_MS, hashRequest } from "@/lib/api/idempotency";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { resetEnvCache } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";

const echo = defineRoute({
  POST: apiRoute(
    { access: { auth: "scope", scope: "messages:write" }, body: z.object({ text: z.string().min(1), n: z.number().int().optional() }), idempotent: true },
    async ({ body }) => created({ text: body.text, at: Math.random() }),
  ),
  GET: apiRoute({ access: { auth: "none" }, query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }) }, ({ query }) => ({
    limit: query.limit,
  })),
});

const crashing = apiRoute({ access: { auth: "none" } }, () => {
  throw new Error('duplicate key value violates unique constraint "users_pkey" at select * from users');
});

describe("the /v1 wrapper", () => {
  afterEach(() => {
    delete process.env.RATE_LIMIT_PER_MINUTE;
    resetEnvCache();
    resetRateLimiters();
  });

  it("echoes a given X-Request-Id and generates one otherwise", async () => {
    const given = await call(echo.GET, { path: "/v1/echo", headers: { "x-request-id": "trace-123" } });
    expect(given.headers.get("x-request-id")).toBe("trace-123");
    const generated = await call(echo.GET, { path: "/v1/echo" });
    expect(generated.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it("answers malformed JSON with 400 invalid_json and the error body", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "invalid_json", message: expect.any(String) }, request_id: res.headers.get("x-request-id") });
  });

  it("answers a non-JSON content type with 415 unsupported_media_type", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, rawBody: "text=hi", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });

  it("names each invalid field in validation_error details", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "", n: 1.5 } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["n", "text"]);
  });

  it("refuses a query outside its range with a 400 naming the parameter", async () => {
    const res = await call(echo.GET, { path: "/v1/echo?limit=101" });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("limit");
  });

  it("answers 413 for a declared or streamed body over the limit", async () => {
    const { adminToken } = await createTestAccount();
    const big = JSON.stringify({ text: "x".repeat(70 * 1024) });
    const res = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, rawBody: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("x".repeat(10 * 1024)));
        controller.close();
      },
    });
    const req = new Request("http://localhost/v1/echo", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json", authorization: `Bearer ${adminToken}` },
      duplex: "half",
    } as RequestInit);
    const streamed = await echo.POST(req, { params: Promise.resolve({}) });
    expect(streamed.status).toBe(413);
  });

  it("answers 415 for a compressed request body", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "hi" }, headers: { "content-encoding": "gzip" } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("unsupported_media_type");
  });

  it("answers an unsupported method with 405 and an Allow header", async () => {
    const res = await call(echo.DELETE, { method: "DELETE", path: "/v1/echo" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(res.body.error.code).toBe("method_not_allowed");
  });

  it("answers an unknown route with 404 not_found", async () => {
    const res = await call(catchAll.GET, { path: "/v1/nothing/here" });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(res.body.request_id).toBeTruthy();
  });

  it("answers an unexpected failure with 500 and no internals", async () => {
    const res = await call(crashing, { path: "/v1/crash" });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe("internal_error");
    expect(res.text).not.toMatch(/select|users_pkey|Error:|at /);
  });

  it("answers a missing token with 401 and WWW-Authenticate naming invalid_token", async () => {
    const res = await call(echo.POST, { method: "POST", path: "/v1/echo", body: { text: "hi" } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
  });

  it("replays an idempotent request and refuses the key with another body", async () => {
    const { adminToken } = await createTestAccount();
    const headers = { "idempotency-key": "key-1" };
    const first = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "hi" }, headers });
    const second = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "hi" }, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const other = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "bye" }, headers });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("conflict");
    // The refused request leaves the first one's answer in place.
    const third = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "hi" }, headers });
    expect(third.status).toBe(201);
    expect(third.body).toEqual(first.body);
    const fresh = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "hi" }, headers: { "idempotency-key": "key-2" } });
    expect(fresh.body.at).not.toBe(first.body.at);
  });

  it("keeps idempotency keys per account", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    const headers = { "idempotency-key": "shared" };
    const first = await call(echo.POST, { method: "POST", path: "/v1/echo", token: a.adminToken, body: { text: "hi" }, headers });
    const second = await call(echo.POST, { method: "POST", path: "/v1/echo", token: b.adminToken, body: { text: "hi" }, headers });
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.at).not.toBe(first.body.at);
  });

  it("sends RateLimit headers and a 429 with Retry-After past the budget", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "3";
    resetEnvCache();
    resetRateLimiters();
    const { adminToken } = await createTestAccount();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body: { text: "hi" } });
      statuses.push(last.status);
      expect(last.headers.get("ratelimit-limit")).toBe("3");
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(last!.body.error.code).toBe("rate_limited");
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("takes over a claim whose request never completed after a minute, and still refuses a fresh one", async () => {
    const { account, adminToken } = await createTestAccount();
    const body = { text: "hi" };
    const claim = (key: string, age: number) =>
      getDb()
        .insert(idempotencyKeys)
        .values({ accountId: account.id, route: "POST /v1/echo", key, requestHash: hashRequest(body), createdAt: new Date(Date.now() - age) });
    await claim("crashed", ABANDONED_CLAIM_MS + 5_000);
    await claim("running", 5_000);

    const retried = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body, headers: { "idempotency-key": "crashed" } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    const replay = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body, headers: { "idempotency-key": "crashed" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(retried.body);

    const busy = await call(echo.POST, { method: "POST", path: "/v1/echo", token: adminToken, body, headers: { "idempotency-key": "running" } });
    expect(busy.status).toBe(409);
    expect(busy.body.error.message).toMatch(/still being processed/);
    const [row] = await getDb()
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, account.id), eq(idempotencyKeys.key, "running")));
    expect(row.responseStatus).toBeNull();
  });

  it("answers a write that lost a race to a unique row with 409 conflict, logging no query parameters", async () => {
    const { account, admin } = await createTestAccount();
    const hash = "$argon2id$v=19$secret-hash-never-logged";
    // What a concurrent duplicate meets once both passed the application's own check.
    const duplicate = apiRoute({ access: { auth: "none" } }, async () => {
      const now = new Date();
      await getDb()
        .insert(users)
        .values({ id: newId("user", now), accountId: account.id, name: "Twin", email: admin.email, passwordHash: hash, role: "agent", createdAt: now, updatedAt: now });
    });
    const logged = [vi.spyOn(console, "error").mockImplementation(() => {}), vi.spyOn(console, "warn").mockImplementation(() => {})];
    try {
      const res = await call(duplicate, { method: "POST", path: "/v1/users" });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("conflict");
      expect(res.text).not.toMatch(/insert|users_email|argon2/);
      const log = JSON.stringify(logged.flatMap((spy) => spy.mock.calls));
      expect(log).toMatch(/23505/);
      expect(log).not.toContain(hash);
      expect(log).not.toContain(admin.email);
    } finally {
      logged.forEach((spy) => spy.mockRestore());
    }
  });

  it("logs a failed query without its parameters", async () => {
    const secret = "name-that-must-not-be-logged";
    const failing = apiRoute({ access: { auth: "none" } }, async () => {
      const now = new Date();
      // No such user: a foreign key violation, which is not the client's doing.
      await getDb()
        .insert(apiTokens)
        .values({ id: newId("token", now), accountId: "acc_missing", userId: "usr_missing", kind: "api", name: secret, scopes: [], expiresAt: now, createdAt: now });
    });
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await call(failing, { method: "POST", path: "/v1/x" });
      expect(res.status).toBe(500);
      expect(spy).toHaveBeenCalledTimes(1);
      const log = JSON.stringify(spy.mock.calls, (_key, value) => (value instanceof Error ? `${value.name}: ${value.message} ${value.stack}` : value));
      expect(log).toMatch(/23503/);
      expect(log).not.toContain(secret);
      expect(log).not.toContain("usr_missing");
    } finally {
      spy.mockRestore();
    }
  });

  it("sends RateLimit headers from the caller's address budget on 404, 405 and routes without a token", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "3";
    resetEnvCache();
    resetRateLimiters();
    // The server stamps each request with its socket address (X-Forwarded-For counts only behind TRUSTED_PROXIES).
    const headers = { "x-chorus-peer-address": "192.0.2.44" };
    const answers = [
      await call(catchAll.GET, { path: "/v1/nothing/here", headers }),
      await call(echo.DELETE, { method: "DELETE", path: "/v1/echo", headers }),
      await call(openapi.GET, { path: "/v1/openapi.json", headers }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 405, 200]);
    expect(answers.map((r) => [r.headers.get("ratelimit-limit"), r.headers.get("ratelimit-remaining")])).toEqual([
      ["3", "2"],
      ["3", "1"],
      ["3", "0"],
    ]);
    for (const r of answers) expect(Number(r.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    for (const limited of [
      await call(catchAll.GET, { path: "/v1/nothing/here", headers }),
      await call(echo.DELETE, { method: "DELETE", path: "/v1/echo", headers }),
      await call(echo.GET, { path: "/v1/echo", headers }),
    ]) {
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe("rate_limited");
      expect(limited.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.headers.get("x-request-id")).toBe(limited.body.request_id);
    }
    // Another address has its own budget.
    expect((await call(echo.GET, { path: "/v1/echo", headers: { "x-chorus-peer-address": "192.0.2.45" } })).status).toBe(200);
  });
});
