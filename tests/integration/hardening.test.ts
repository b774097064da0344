import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as login from "@/app/v1/auth/login/route";
import * as refresh from "@/app/v1/auth/refresh/route";
import * as tokens from "@/app/v1/auth/tokens/route";
import * as verify from "@/app/v1/auth/verify/route";
import * as assign from "@/app/v1/conversations/[id]/assign/route";
import * as conversation from "@/app/v1/conversations/[id]/route";
import * as conversations from "@/app/v1/conversations/route";
import * as numberConfig from "@/app/v1/config/number/route";
import * as mediaRoute from "@/app/v1/messages/[id]/media/route";
import * as usersRoute from "@/app/v1/users/route";
import * as userRoute from "@/app/v1/users/[id]/route";
import * as webhooksRoute from "@/app/v1/webhooks/route";
import * as webhookRoute from "@/app/v1/webhooks/[id]/route";
import * as plants from "@/app/plant-store/plants/route";
import * as healthz from "@/app/healthz/route";
import * as catchAll from "@/app/v1/[...path]/route";
import { getDb } from "@/db";
import { apiTokens } from "@/db/schema";
import { consumeLoginAttempt, resetRateLimiters } from "@/lib/platform/rate-limit";
import { createSession } from "@/lib/auth/sessions";
import { getEnv } from "@/lib/platform/env";
import { recordEvent } from "@/lib/events/record-event";
import { setStreamRecheckMs } from "@/lib/events/stream";
import type { EventType } from "@/lib/events/types";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/request-hook";
import { openEventStream } from "@/tests/support/event-stream";
import { receiveInboundMessage } from "@/lib/messages/receive-inbound";
import { proxy } from "@/proxy";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";
import { nextPhone, PNG, seedConversation } from "@/tests/support/messaging";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";
import { systemContext } from "@/lib/server/context";

const COOKIE = "authjs.session-token";
const inAYear = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

async function cookieFor(user: { id: string; accountId: string; role: "admin" | "agent" }) {
  const session = await createSession(systemContext().db, { user });
  const value = await encode({ token: { sub: user.id, tid: session.id, acc: user.accountId }, secret: getEnv().AUTH_SECRET, salt: COOKIE });
  return `${COOKIE}=${value}`;
}

async function apiToken(sessionToken: string, permissions: string[]) {
  const res = await call(tokens.POST, {
    method: "POST",
    path: "/v1/auth/tokens",
    token: sessionToken,
    body: { name: "hardening", permissions, expires_at: inAYear() },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string };
}

beforeEach(async () => {
  await resetRateLimiters();
});

describe("1. inbound media: the type comes from the bytes, and the media URL runs nothing", () => {
  const HTML = Buffer.from("<!doctype html><script>fetch('/v1/auth/tokens',{method:'POST'})</script>");
  const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(24, 7)]);

  async function receive(accountId: string, type: "image" | "document", mimeType: string, bytes: Buffer, filename?: string) {
    const result = await receiveInboundMessage(systemContext(), {
      accountId,
      inbound: { networkMessageId: `wamid.${Math.random()}`, from: nextPhone(), type, media: { mimeType, bytes, ...(filename ? { filename } : {}) } },
    });
    if (!("message" in result)) throw new Error(`the message was skipped: ${result.skipped}`);
    const { message } = result;
    return message;
  }

  it("stores a page declared text/html, or an SVG declared as an image, as an application/octet-stream document", async () => {
    const { account, adminToken } = await createTestAccount();
    for (const [declared, bytes, type] of [
      ["text/html", HTML, "document"],
      ["image/svg+xml", SVG, "image"],
      ["image/jpeg", HTML, "image"],
    ] as const) {
      const message = await receive(account.id, type, declared, bytes, "page.html");
      expect(message.type).toBe("document");
      expect(message.media?.mime_type).toBe("application/octet-stream");
      const res = await call(mediaRoute.GET, { path: `/v1/messages/${message.id}/media`, token: adminToken, params: { id: message.id } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/octet-stream");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
    }
  });

  it("keeps an allowed type the bytes bear out, corrects a wrong one, and shows pictures in place (sandboxed)", async () => {
    const { account, adminToken } = await createTestAccount();
    const png = await receive(account.id, "image", "image/jpeg", PNG);
    expect(png).toMatchObject({ type: "image", media: { mime_type: "image/png" } });
    const sticker = await receive(account.id, "image", "image/webp", WEBP);
    expect(sticker).toMatchObject({ type: "image", media: { mime_type: "image/webp" } });
    const res = await call(mediaRoute.GET, { path: `/v1/messages/${png.id}/media`, token: adminToken, params: { id: png.id } });
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe("inline");
    expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    const text = await receive(account.id, "document", "text/plain", Buffer.from("hello"), "notes.txt");
    const served = await call(mediaRoute.GET, { path: `/v1/messages/${text.id}/media`, token: adminToken, params: { id: text.id } });
    expect(served.headers.get("content-type")).toBe("text/plain");
    expect(served.headers.get("content-disposition")).toMatch(/^attachment; filename="notes.txt"/);
  });
});

describe("2. sign-in budgets: normalised emails, and the socket address unless TRUSTED_PROXIES says otherwise", () => {
  it("counts ' Carol@…', 'carol@…' and a full-width 'ｃarol@…' against one email budget", async () => {
    const variants = ["carol@example.com", " carol@example.com", "CAROL@EXAMPLE.COM ", "\uff43arol@example.com"];
    let last;
    for (let i = 0; i < 11; i++) last = await consumeLoginAttempt({ ip: `192.0.2.${i}`, email: variants[i % variants.length] });
    expect(last!.limited).toBe(true);
  });

  it("ignores X-Forwarded-For by default: rotating it does not give a fresh address budget", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await call(login.POST, {
        method: "POST",
        path: "/v1/auth/login",
        body: { email: `nobody-${i}@example.com`, password: "wrong password!" },
        headers: { "x-forwarded-for": `198.51.100.${i}`, [PEER_ADDRESS_HEADER]: "203.0.113.77" },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it("with TRUSTED_PROXIES=1 takes the address the proxy appended, not what the client put before it", async () => {
    const restore = setEnv({ TRUSTED_PROXIES: "1" });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await call(login.POST, {
          method: "POST",
          path: "/v1/auth/login",
          body: { email: `someone-${i}@example.com`, password: "wrong password!" },
          headers: { "x-forwarded-for": `10.9.9.${i}, 203.0.113.88`, [PEER_ADDRESS_HEADER]: "127.0.0.1" },
        });
        statuses.push(res.status);
      }
      expect(statuses[10]).toBe(429);
    } finally {
      restore();
    }
  });
});

describe("3. the event stream follows the token's fate", () => {
  beforeAll(() => setStreamRecheckMs(200));
  afterAll(() => setStreamRecheckMs(undefined));

  const openStream = (token: string) => openEventStream(token);

  const emit = (accountId: string, type: EventType, data: Record<string, unknown> = {}) =>
    getDb().transaction((tx) => recordEvent({ ...systemContext(), db: tx }, { accountId, type, data }));

  it("ends within 5 s once its token is revoked, and sends nothing committed after the revocation", async () => {
    const { account, adminToken } = await createTestAccount();
    const token = await apiToken(adminToken, ["conversations:read"]);
    const s = await openStream(token.token);
    await emit(account.id, "conversation.created", { n: 1 });
    expect(await s.until(() => s.events.length === 1)).toBe(true);
    await getDb().update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, token.id));
    await emit(account.id, "conversation.created", { n: 2 });
    expect(await s.until(() => s.ended(), 5000)).toBe(true);
    expect(s.events.map((e) => e.data.n)).toEqual([1]);
  });

  it("ends when its user is deleted", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const s = await openStream(agent.token);
    const deleted = await call(userRoute.DELETE, { method: "DELETE", path: `/v1/users/${agent.user.id}`, token: adminToken, params: { id: agent.user.id } });
    expect(deleted.status).toBe(204);
    expect(await s.until(() => s.ended(), 5000)).toBe(true);
  });

  it("ends when the owner's role no longer allows a scope it was reading, before sending any such event", async () => {
    const { account, adminToken } = await createTestAccount();
    const second = await addTestUser(account.id, "admin");
    const token = await apiToken(second.token, ["webhooks:read", "conversations:read"]);
    const s = await openStream(token.token);
    const demoted = await call(userRoute.PATCH, {
      method: "PATCH",
      path: `/v1/users/${second.user.id}`,
      token: adminToken,
      params: { id: second.user.id },
      body: { role: "agent" },
    });
    expect(demoted.status).toBe(200);
    await emit(account.id, "webhook.failed", { secret_stuff: true });
    expect(await s.until(() => s.ended(), 5000)).toBe(true);
    expect(s.events.filter((e) => e.type.startsWith("webhook."))).toEqual([]);
  });
});

describe("7. NUL characters are a 400 naming the field, never a 500", () => {
  it("in the unauthenticated sign-in, a body field, a path id, a query value and the plant store", async () => {
    const { adminToken } = await createTestAccount();
    const signIn = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: "a\u0000@example.com", password: "x\u0000yyyyyyyyy" } });
    expect(signIn.status).toBe(400);
    expect(signIn.body.error).toMatchObject({ code: "validation_error", details: [{ path: "email" }] });

    const user = await call(usersRoute.POST, {
      method: "POST",
      path: "/v1/users",
      token: adminToken,
      body: { name: "Nul\u0000Name", email: "nul@example.com", role: "agent", password: TEST_PASSWORD },
    });
    expect(user.status).toBe(400);
    expect(user.body.error.details[0].path).toBe("name");

    const byId = await call(conversation.GET, { path: "/v1/conversations/conv_%00", token: adminToken, params: { id: "conv_\u0000" } });
    expect(byId.status).toBe(400);
    const listed = await call(conversations.GET, { path: "/v1/conversations?assigned_to=usr_%00", token: adminToken });
    expect(listed.status).toBe(400);
    expect(listed.body.error.details[0].path).toBe("assigned_to");

    const plant = await call(plants.POST, { method: "POST", path: "/plant-store/plants", token: adminToken, body: { name: "Fern\u0000" } });
    expect(plant.status).toBe(400);
    expect(plant.body).toMatchObject({ error: 400 });
  });
});

describe("8. a malformed %-escape in the session cookie", () => {
  it("is a 401 on every route, not a 500", async () => {
    for (const value of ["%E0%A4%A", "abc%zz", "%"]) {
      const res = await call(conversations.GET, { path: "/v1/conversations", headers: { cookie: `${COOKIE}=${value}` } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthenticated");
    }
  });
});

describe("9. unserved methods", () => {
  it("OPTIONS (and TRACE, handed to the route as OPTIONS by the server) is a 405 with the error body, Allow and a request id", async () => {
    for (const [handler, path, allow] of [
      [conversations.OPTIONS, "/v1/conversations", "GET, HEAD"],
      [webhooksRoute.OPTIONS, "/v1/webhooks", "GET, POST, HEAD"],
      [catchAll.OPTIONS, "/v1/nothing", undefined],
      [healthz.OPTIONS, "/healthz", "GET, HEAD"],
    ] as const) {
      const res = await call(handler, { method: "OPTIONS", path, headers: { "x-chorus-original-method": "TRACE" } });
      if (!allow) {
        expect(res.status).toBe(404);
        continue;
      }
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe(allow);
      expect(res.body.error.code).toBe("method_not_allowed");
      expect(res.body.error.message).toMatch(/^TRACE is not allowed/);
      expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
    }
    const plantsOptions = await call(plants.OPTIONS, { method: "OPTIONS", path: "/plant-store/plants" });
    expect(plantsOptions.status).toBe(405);
    expect(plantsOptions.body).toMatchObject({ error: 405 });
  });

  it("a page answers a method it does not serve with 405 and Allow", async () => {
    const res = proxy(new NextRequest("http://localhost/inbox", { method: "OPTIONS" }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });
});

describe("10. cookie-authenticated writes from another site", () => {
  it("are refused with 403 forbidden (foreign Origin or Sec-Fetch-Site: cross-site); own origin and bearer tokens pass", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const cookie = await cookieFor(admin);
    const { conversation: conv } = await seedConversation({ accountId: account.id });
    const post = (headers: Record<string, string>) =>
      call(assign.POST, { method: "POST", path: `/v1/conversations/${conv.id}/assign`, params: { id: conv.id }, headers });

    const foreign: Record<string, string>[] = [{ cookie, origin: "https://evil.example" }, { cookie, "sec-fetch-site": "cross-site" }, { cookie, origin: "null" }];
    for (const headers of foreign) {
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect((await post({ cookie, origin: getEnv().APP_URL })).status).toBe(200);
    expect((await post({ cookie, origin: "http://localhost", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await post({ authorization: `Bearer ${adminToken}`, origin: "https://evil.example" })).status).toBe(200);
    // Reads stay open to the cookie from anywhere (they change nothing).
    expect((await call(conversations.GET, { path: "/v1/conversations", headers: { cookie, origin: "https://evil.example" } })).status).toBe(200);
  });
});

describe("11. refreshing a session", () => {
  it("revokes the old token after a 10 s grace; a retry within it gets the same new token", async () => {
    const { adminToken } = await createTestAccount();
    const first = await call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: adminToken, body: {} });
    expect(first.status).toBe(200);
    const retry = await call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: adminToken, body: {} });
    expect(retry.status).toBe(200);
    expect(retry.body.token).toBe(first.body.token);
    // Within the grace the old token still works (requests already in flight).
    expect((await call(verify.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(200);

    const oldId = JSON.parse(Buffer.from(adminToken.split(".")[1], "base64url").toString()).jti as string;
    const [row] = await getDb().select().from(apiTokens).where(eq(apiTokens.id, oldId));
    expect(row.revokedAt!.getTime() - Date.now()).toBeGreaterThan(8_000);
    expect(row.revokedAt!.getTime() - Date.now()).toBeLessThanOrEqual(10_000);
    // Once the grace is over (the clock moved 11 s on), the old token is refused; the new one works.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date(Date.now() + 11_000));
      expect((await call(verify.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(401);
      expect((await call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: adminToken, body: {} })).status).toBe(401);
      expect((await call(verify.GET, { path: "/v1/auth/verify", token: first.body.token })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("12. browser safety headers", () => {
  it("pages get a nonce-based CSP with frame-ancestors 'none', nosniff and the referrer policy; HSTS only over https", async () => {
    const res = proxy(new NextRequest("http://localhost/login"));
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline' 'nonce");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const other = proxy(new NextRequest("http://localhost/login"));
    expect(other.headers.get("content-security-policy")).not.toBe(csp);

    const restore = setEnv({ APP_URL: "https://chorus.example" });
    try {
      const secure = proxy(new NextRequest("http://localhost/v1/conversations"));
      expect(secure.headers.get("strict-transport-security")).toMatch(/^max-age=\d+/);
      expect(secure.headers.get("x-content-type-options")).toBe("nosniff");
    } finally {
      restore();
    }
  });

  it("answers carrying a token or a secret send Cache-Control: no-store", async () => {
    const { admin, adminToken } = await createTestAccount();
    const signedIn = await call(login.POST, { method: "POST", path: "/v1/auth/login", body: { email: admin.email, password: TEST_PASSWORD } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("cache-control")).toBe("no-store");
    const created = await call(tokens.POST, {
      method: "POST",
      path: "/v1/auth/tokens",
      token: adminToken,
      body: { name: "x", permissions: ["reports:read"], expires_at: inAYear() },
    });
    expect(created.headers.get("cache-control")).toBe("no-store");
    const refreshed = await call(refresh.POST, { method: "POST", path: "/v1/auth/refresh", token: created.body.token, body: {} });
    expect(refreshed.headers.get("cache-control")).toBe("no-store");
  });
});

describe("13. GET /v1/auth/tokens with an API token", () => {
  it("lists only that token, unless its owner is an admin and it holds users:read", async () => {
    const { adminToken } = await createTestAccount();
    const reports = await apiToken(adminToken, ["reports:read"]);
    const reader = await apiToken(adminToken, ["users:read"]);
    const mine = await call(tokens.GET, { path: "/v1/auth/tokens", token: reports.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((t: { id: string }) => t.id)).toEqual([reports.id]);
    const all = await call(tokens.GET, { path: "/v1/auth/tokens", token: reader.token });
    expect(all.body.data.map((t: { id: string }) => t.id).sort()).toEqual([reports.id, reader.id].sort());
    const session = await call(tokens.GET, { path: "/v1/auth/tokens", token: adminToken });
    expect(session.body.data).toHaveLength(2);
  });
});

describe("14. idempotent webhook registration", () => {
  let receiver: WebhookReceiver;
  let restore: () => void;
  beforeAll(async () => {
    restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "2000" });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    restore();
  });
  afterEach(() => receiver.respond(() => ({ status: 200, body: "ok" })));

  it("replays the first answer, secret included, after the webhook was deleted; another user's replay never gets the secret", async () => {
    const { account, adminToken } = await createTestAccount();
    const headers = { "idempotency-key": "register-once" };
    const body = { url: receiver.url, events: ["message.received"] };
    const first = await call(webhooksRoute.POST, { method: "POST", path: "/v1/webhooks", token: adminToken, body, headers });
    expect(first.status).toBe(201);
    const deleted = await call(webhookRoute.DELETE, { method: "DELETE", path: `/v1/webhooks/${first.body.id}`, token: adminToken, params: { id: first.body.id } });
    expect(deleted.status).toBe(204);

    const replay = await call(webhooksRoute.POST, { method: "POST", path: "/v1/webhooks", token: adminToken, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);

    const teammate = await addTestUser(account.id, "admin");
    const stolen = await call(webhooksRoute.POST, { method: "POST", path: "/v1/webhooks", token: teammate.token, body, headers });
    expect(stolen.status).toBe(409);
    expect(stolen.text).not.toContain(first.body.secret);
  });
});

describe("19. what the fuzzer found in the documents", () => {
  it("refuses api_base_url: \"\" (format uri) with a 400 naming it; null keeps the default", async () => {
    const { adminToken } = await createTestAccount();
    const put = (api_base_url: unknown) => call(numberConfig.PUT, { method: "PUT", path: "/v1/config/number", token: adminToken, body: { provider: "sandbox", api_base_url } });
    const empty = await put("");
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0].path).toBe("api_base_url");
    const cleared = await put(null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.api_base_url).toBe("https://graph.facebook.com/v21.0");
  });
});
