import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/request-hook";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as sandboxInboundRoute from "@/app/api/sandbox/inbound/route";
import * as networkWebhookRoute from "@/app/api/network/webhook/route";
import { getDb } from "@/db";
import { events } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { createApiToken } from "@/lib/auth/api-tokens";
import type { Scope } from "@/lib/auth/scopes";
import { confirmMfaEnrolment, setMfaRequirement, startMfaEnrolment } from "@/lib/auth/mfa";
import { checkAuthorizeRequest, signConsent } from "@/lib/oauth/authorize";
import { s256 } from "@/lib/platform/crypto/secret-hash";
import { resetEnvCache } from "@/lib/platform/env";
import { setPresenceGraceMs } from "@/lib/events/presence";
import { eventTypes } from "@/lib/events/types";
import { uploadDocument } from "@/lib/profile/documents";
import { setCampaignWarmUpMs, setDispatchRunMs } from "@/lib/campaigns/send";
import { call as callHandler } from "@/tests/support/api";
import { Contract, type OpenApiDocument } from "@/tests/support/contract";
import { setEnv } from "@/tests/support/env-vars";
import { buildEditPayload, buildInboundPayload, signHubPayload, startFakeCloudNetwork } from "@/tests/support/fake-cloud-network";
import { startFakeLlm } from "@/tests/support/fake-llm";
import { addTestUser, bearerContext, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";
import { JPEG, nextPhone, PNG } from "@/tests/support/messaging";
import { makePdf } from "@/tests/support/pdf";
import { createDispatchFetch, ROUTE_METHODS, routeTable } from "@/tests/support/route-table";
import { startReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";
import { drain } from "@/tests/support/webhooks";
import { postConsent, postForm, sessionCookie } from "@/tests/support/oauth";
import { Secret, TOTP } from "otpauth";
import { systemContext, verbContext } from "@/lib/server/context";

/**
 * Runs the real route handlers and checks every answer against the served OpenAPI
 * documents, so the documents cannot drift from the code.
 */

const dispatch = createDispatchFetch(["v1", "plant-store"]);

let v1: Contract;
let plants: Contract;

type CallOptions = { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> };

async function request(method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return dispatch(new Request(`http://localhost${path}`, { method, headers, body }));
}

/** Calls the handler and fails the test if the answer differs from the document. */
async function call(method: string, path: string, options: CallOptions = {}) {
  const contract = path.startsWith("/plant-store") ? plants : v1;
  const res = await request(method, path, options);
  const { problems, result } = await contract.check(method, new URL(`http://localhost${path}`).pathname, res);
  expect(problems, `${method} ${path}`).toEqual([]);
  return result;
}

async function expectStatus(status: number, method: string, path: string, options: CallOptions = {}) {
  const result = await call(method, path, options);
  expect(result.status, `${method} ${path}: ${result.text.slice(0, 200)}`).toBe(status);
  return result;
}

async function withRateLimit<T>(perMinute: number, run: () => Promise<T>): Promise<T> {
  process.env.RATE_LIMIT_PER_MINUTE = String(perMinute);
  resetEnvCache();
  resetRateLimiters();
  try {
    return await run();
  } finally {
    delete process.env.RATE_LIMIT_PER_MINUTE;
    resetEnvCache();
    resetRateLimiters();
  }
}

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const HOUR = 3_600_000;

/** An api token of the admin's account with only these scopes. */
async function scopedToken(adminToken: string, permissions: Scope[]) {
  const ctx = await bearerContext(adminToken);
  return (await createApiToken({ ctx, input: { name: `only ${permissions.join(" ")}`, permissions, expires_at: new Date(days(3)) } })).token;
}

/** A customer's message through the sandbox's inbound route (outside /v1, so not part of the contract). */
async function simulateCustomer(token: string, body: Record<string, unknown>) {
  const res = await callHandler(sandboxInboundRoute.POST, { method: "POST", path: "/api/sandbox/inbound", token, body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; conversation_id: string };
}

beforeAll(async () => {
  // The documents as served, not as built: what a client generator would download.
  const served = async (path: string) => {
    const res = await request("GET", path);
    expect(res.status).toBe(200);
    return (await res.json()) as OpenApiDocument;
  };
  v1 = new Contract("v1.json", await served("/v1/openapi.json"));
  plants = new Contract("plant-store.json", await served("/plant-store/openapi.json"));
});

afterAll(() => resetRateLimiters());

describe("the contract checker", () => {
  it("reports a body, a status, a content type or a header that the document does not allow", async () => {
    const standard = { "x-request-id": "req_1", "ratelimit-limit": "600", "ratelimit-remaining": "599", "ratelimit-reset": "42" };
    const json = (body: unknown, status = 200, headers: Record<string, string> = standard) => Response.json(body, { status, headers });
    const account = { id: "acc_1", name: "A", phone_number: null, number_status: "sandbox", coexistence: false, created_at: "2026-11-22T10:15:30.123Z", users: { total: 1, admins: 1, agents: 0 } };
    expect((await v1.check("GET", "/v1/account", json(account))).problems).toEqual([]);
    const problems = async (res: Response, method = "GET", path = "/v1/account") => (await v1.check(method, path, res)).problems;
    expect(await problems(json({ ...account, secret: "leak" }))).toEqual([expect.stringMatching(/additional properties/)]);
    expect(await problems(json({ ...account, users: { total: "1", admins: 1, agents: 0 } }))).toEqual([expect.stringMatching(/must be integer/)]);
    expect(await problems(json(account, 418))).toEqual([expect.stringMatching(/status not documented/)]);
    expect(await problems(json(account, 200, {}))).toEqual([
      expect.stringMatching(/missing required header X-Request-Id/),
      expect.stringMatching(/missing required header RateLimit-Limit/),
      expect.stringMatching(/missing required header RateLimit-Remaining/),
      expect.stringMatching(/missing required header RateLimit-Reset/),
    ]);
    expect(await problems(json(account, 200, { "x-request-id": "req_1" }))).toEqual([
      expect.stringMatching(/missing required header RateLimit-Limit/),
      expect.stringMatching(/missing required header RateLimit-Remaining/),
      expect.stringMatching(/missing required header RateLimit-Reset/),
    ]);
    expect(await problems(new Response("ok", { headers: { ...standard, "content-type": "text/plain" } }))).toEqual([
      expect.stringMatching(/content type "text\/plain" not documented/),
    ]);
    expect(await problems(json({ error: { code: "x" }, request_id: "r" }, 404), "GET", "/v1/users/usr_1")).toEqual([
      expect.stringMatching(/must have required property 'message'/),
    ]);
    expect(await problems(json({}), "GET", "/v1/nothing")).toEqual([expect.stringMatching(/path not documented/)]);
    const plantProblems = (await plants.check("POST", "/plant-store/plants", json({ id: "7", name: "Fern" }))).problems;
    expect(plantProblems).toEqual([expect.stringMatching(/must be integer/)]);
    // The plant store's answers all carry the request id.
    expect((await plants.check("DELETE", "/plant-store/plants/1", new Response(null, { status: 204, headers: { "x-request-id": "req_1" } }))).problems).toEqual([]);
    expect((await plants.check("DELETE", "/plant-store/plants/1", new Response(null, { status: 204 }))).problems).toEqual([
      expect.stringMatching(/missing required header X-Request-Id/),
    ]);
    expect((await plants.check("DELETE", "/plant-store/plants/1", json({ error: 400 }, 400))).problems).toEqual([
      expect.stringMatching(/required property 'message'/),
    ]);

    const user = { id: "usr_1", name: "Ada", email: "ada@example.com", role: "admin", availability: "online", locale: null, created_at: "2026-11-22T10:15:30.123Z", updated_at: "2026-11-22T10:15:30.123Z" };
    const envelope = { id: "evt_1", type: "user.created", created_at: "2026-11-22T10:15:30.123Z", data: { user } };
    expect(v1.checkWebhook("user.created", envelope)).toEqual([]);
    expect(v1.checkWebhook("user.created", { ...envelope, data: { user: { ...user, password_hash: "x" } } })).toEqual([expect.stringMatching(/additional properties/)]);
    expect(v1.checkWebhook("user.deleted", envelope)).toEqual([expect.stringMatching(/constant/)]);
    expect(v1.checkWebhook("plant.created", { id: 1, name: "Fern" })).toEqual([]);
    expect(v1.checkWebhook("plant.created", { id: "1", name: "Fern" })).toEqual([expect.stringMatching(/must be integer/)]);
    expect(v1.checkWebhook("user.vanished", envelope)).toEqual([expect.stringMatching(/not documented/)]);
  });
});

describe("the served documents", () => {
  it("are themselves answers of documented operations", async () => {
    const doc = await expectStatus(200, "GET", "/v1/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    expect(doc.headers.get("content-type")).toMatch(/^application\/json/);
    const plantDoc = await request("GET", "/plant-store/openapi.json");
    expect(plantDoc.status).toBe(200);
    expect((await plantDoc.json()).info.title).toBe("Plant Store");
  });
});

describe("plant store contract", () => {
  it("list, create and delete answer as documented", async () => {
    const { adminToken } = await createTestAccount();
    const created = await expectStatus(200, "POST", "/plant-store/plants", { token: adminToken, body: { name: "Aloe", tag: "succulent" } });
    await expectStatus(200, "POST", "/plant-store/plants", { token: adminToken, body: { name: "Basil" } });
    const listed = await expectStatus(200, "GET", "/plant-store/plants?limit=5", { token: adminToken });
    expect(listed.body).toHaveLength(2);
    await expectStatus(204, "DELETE", `/plant-store/plants/${created.body.id}`, { token: adminToken });
  });

  it("errors answer the documented Error", async () => {
    const { adminToken } = await createTestAccount();
    const other = await createTestAccount();
    const theirs = await call("POST", "/plant-store/plants", { token: other.adminToken, body: { name: "Fern" } });
    await expectStatus(400, "GET", "/plant-store/plants?limit=0", { token: adminToken });
    await expectStatus(400, "POST", "/plant-store/plants", { token: adminToken, body: { name: 5 } });
    await expectStatus(400, "DELETE", "/plant-store/plants/abc", { token: adminToken });
    await expectStatus(404, "DELETE", `/plant-store/plants/${theirs.body.id}`, { token: adminToken });
    await expectStatus(401, "GET", "/plant-store/plants");
    await expectStatus(401, "POST", "/plant-store/plants", { body: { name: "Fern" } });
    await expectStatus(401, "DELETE", "/plant-store/plants/1", { token: "not-a-token" });
    await expectStatus(413, "POST", "/plant-store/plants", { token: adminToken, body: { name: "x", pad: "x".repeat(70_000) } });
    await expectStatus(415, "POST", "/plant-store/plants", { token: adminToken, body: { name: "x" }, headers: { "content-encoding": "gzip" } });
    await withRateLimit(1, async () => {
      await expectStatus(200, "GET", "/plant-store/plants", { token: adminToken });
      await expectStatus(429, "GET", "/plant-store/plants", { token: adminToken });
      await expectStatus(429, "POST", "/plant-store/plants", { token: adminToken, body: { name: "x" } });
      await expectStatus(429, "DELETE", "/plant-store/plants/1", { token: adminToken });
    });
  });

  it("exercised every documented status of every operation", () => {
    const documented = Object.entries(plants.doc.paths).flatMap(([template, item]) =>
      Object.entries<any>(item).flatMap(([method, op]) =>
        Object.keys(op.responses)
          .filter((status) => status !== "default")
          .map((status) => `${method.toUpperCase()} /plant-store${template} ${status}`),
      ),
    );
    expect(documented.filter((key) => !plants.checked.has(key))).toEqual([]);
  });
});

describe("/v1 contract", () => {
  it("authentication routes answer as documented", async () => {
    const { admin, adminToken } = await createTestAccount();
    const login = await expectStatus(200, "POST", "/v1/auth/login", { body: { email: admin.email, password: TEST_PASSWORD } });
    expect(login.body.user.id).toBe(admin.id);
    await expectStatus(401, "POST", "/v1/auth/login", { body: { email: admin.email, password: "wrong password!" } });
    await expectStatus(400, "POST", "/v1/auth/login", { body: { email: admin.email } });
    await expectStatus(400, "POST", "/v1/auth/login", { rawBody: "{", headers: { "content-type": "application/json" } });
    await expectStatus(413, "POST", "/v1/auth/login", { body: { email: "a@b.co", password: "x".repeat(70_000) } });
    await expectStatus(415, "POST", "/v1/auth/login", { body: { email: "a@b.co", password: "x" }, headers: { "content-encoding": "gzip" } });
    const email = `limited-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++) await call("POST", "/v1/auth/login", { body: { email, password: "wrong password!" } });
    await expectStatus(429, "POST", "/v1/auth/login", { body: { email, password: "wrong password!" } });

    const body = { name: "CI", permissions: ["users:read"], expires_at: days(30) };
    const created = await expectStatus(201, "POST", "/v1/auth/tokens", { token: adminToken, body, headers: { "idempotency-key": "contract-1" } });
    const replay = await expectStatus(201, "POST", "/v1/auth/tokens", { token: adminToken, body, headers: { "idempotency-key": "contract-1" } });
    expect(replay.body.id).toBe(created.body.id);
    await expectStatus(409, "POST", "/v1/auth/tokens", { token: adminToken, body: { ...body, name: "Other" }, headers: { "idempotency-key": "contract-1" } });
    await expectStatus(400, "POST", "/v1/auth/tokens", { token: adminToken, body: { ...body, expires_at: days(400) } });
    await expectStatus(403, "POST", "/v1/auth/tokens", { token: created.body.token, body });
    await expectStatus(401, "POST", "/v1/auth/tokens", { body });

    const list = await expectStatus(200, "GET", "/v1/auth/tokens?limit=1", { token: adminToken });
    expect(list.body.data).toHaveLength(1);
    await expectStatus(400, "GET", "/v1/auth/tokens?limit=0", { token: adminToken });
    await expectStatus(400, "GET", "/v1/auth/tokens?cursor=forged.cursor", { token: adminToken });
    await expectStatus(200, "GET", "/v1/auth/verify", { token: created.body.token });
    await expectStatus(401, "GET", "/v1/auth/verify", { token: "x.y.z" });

    const refreshed = await expectStatus(200, "POST", "/v1/auth/refresh", { token: created.body.token, body: {} });
    await expectStatus(200, "POST", "/v1/auth/refresh", { token: adminToken });
    await expectStatus(401, "POST", "/v1/auth/refresh", { token: created.body.token, body: {} });
    await expectStatus(400, "POST", "/v1/auth/refresh", { token: adminToken, rawBody: "{", headers: { "content-type": "application/json" } });

    const refreshedId = (await bearerContext(refreshed.body.token)).token.id;
    await expectStatus(403, "DELETE", `/v1/auth/tokens/${created.body.id}`, { token: refreshed.body.token });
    await expectStatus(204, "DELETE", `/v1/auth/tokens/${refreshedId}`, { token: adminToken });
    await expectStatus(404, "DELETE", "/v1/auth/tokens/tok_unknown", { token: adminToken });
  });

  it("account, health, the event stream and rate limits answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const summary = await expectStatus(200, "GET", "/v1/account", { token: adminToken });
    expect(summary.body.id).toBe(account.id);
    await expectStatus(200, "GET", "/v1/health", { token: adminToken });
    const stream = await expectStatus(200, "GET", "/v1/events/stream", { token: adminToken });
    expect(stream.text).toMatch(/^retry: /);
    // From the inbox a session counts as present: online while connected, offline after the grace period.
    setPresenceGraceMs(0);
    try {
      await expectStatus(200, "GET", "/v1/events/stream?presence=1", { token: adminToken });
      await vi.waitFor(async () => {
        const types = (await getDb().select({ type: events.type }).from(events).where(eq(events.accountId, account.id)).orderBy(events.id)).map((e) => e.type);
        expect(types.filter((type) => type.startsWith("user.o"))).toEqual(["user.online", "user.offline"]);
      });
    } finally {
      setPresenceGraceMs(30_000);
    }
    await expectStatus(400, "GET", "/v1/events/stream", { token: adminToken, headers: { "last-event-id": "nope" } });

    await withRateLimit(1, async () => {
      await expectStatus(200, "GET", "/v1/account", { token: adminToken });
      const limited = await expectStatus(429, "GET", "/v1/account", { token: adminToken });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      await expectStatus(429, "GET", "/v1/health", { token: adminToken });
      await expectStatus(429, "GET", "/v1/users", { token: adminToken });
      // Requests without a token spend the caller's address budget.
      await expectStatus(200, "GET", "/v1/openapi.json");
      const anonymous = await expectStatus(429, "GET", "/v1/openapi.json");
      expect(Number(anonymous.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  it("user routes answer as documented", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const list = await expectStatus(200, "GET", "/v1/users", { token: adminToken });
    expect(list.body.data.length).toBe(2);
    await expectStatus(400, "GET", "/v1/users?limit=500", { token: adminToken });
    const created = await expectStatus(201, "POST", "/v1/users", {
      token: adminToken,
      body: { name: "Nina", email: `nina-${Date.now()}@example.com`, role: "agent", password: TEST_PASSWORD },
    });
    await expectStatus(400, "POST", "/v1/users", { token: adminToken, body: { name: "", email: "bad", role: "boss", password: "short" } });
    await expectStatus(403, "POST", "/v1/users", { token: agent.token, body: { name: "N", email: "n@example.com", role: "agent", password: TEST_PASSWORD } });
    const readOnly = await createApiToken({ ctx: await bearerContext(adminToken), input: { name: "ro", permissions: ["reports:read"], expires_at: new Date(days(3)) } });
    await expectStatus(403, "GET", "/v1/users", { token: readOnly.token });

    await expectStatus(200, "GET", `/v1/users/${created.body.id}`, { token: adminToken });
    await expectStatus(404, "GET", "/v1/users/usr_unknown", { token: adminToken });
    await expectStatus(403, "GET", `/v1/users/${created.body.id}`, { token: readOnly.token });
    await expectStatus(200, "PATCH", `/v1/users/${created.body.id}`, { token: adminToken, body: { name: "Nina B." } });
    await expectStatus(400, "PATCH", `/v1/users/${created.body.id}`, { token: adminToken, body: {} });
    await expectStatus(403, "PATCH", `/v1/users/${created.body.id}`, { token: agent.token, body: { name: "Not allowed" } });
    await expectStatus(404, "PATCH", "/v1/users/usr_unknown", { token: adminToken, body: { name: "Nobody" } });
    await expectStatus(409, "PATCH", `/v1/users/${admin.id}`, { token: adminToken, body: { role: "agent" } });
    await expectStatus(409, "DELETE", `/v1/users/${admin.id}`, { token: adminToken });
    await expectStatus(403, "DELETE", `/v1/users/${created.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/users/${created.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/users/${created.body.id}`, { token: adminToken });
  });

  it("conversation and message routes answer as documented", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const other = await createTestAccount();
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
    const phone = nextPhone();
    const photo = await simulateCustomer(adminToken, {
      from: phone,
      name: "María",
      type: "image",
      media: { mime_type: "image/jpeg", data: JPEG.toString("base64"), caption: "This one?" },
    });
    const question = await simulateCustomer(adminToken, { from: phone, type: "text", text: "Do you have it in stock?" });
    const conversationId = photo.conversation_id;
    const theirs = await simulateCustomer(other.adminToken, { from: nextPhone(), type: "text", text: "Hello" });

    const list = await expectStatus(200, "GET", "/v1/conversations?status=open&limit=10", { token: adminToken });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([conversationId]);
    expect(list.body.data[0]).toMatchObject({ status: "open", unread_count: 2, contact: { phone, name: "María" } });
    await expectStatus(200, "GET", "/v1/conversations?assigned_to=none", { token: adminToken });
    await expectStatus(400, "GET", "/v1/conversations?status=pending", { token: adminToken });
    await expectStatus(400, "GET", "/v1/conversations?assigned_to=bob", { token: adminToken });
    await expectStatus(401, "GET", "/v1/conversations");
    await expectStatus(403, "GET", "/v1/conversations", { token: reportsOnly });

    await expectStatus(200, "GET", `/v1/conversations/${conversationId}`, { token: agent.token });
    await expectStatus(404, "GET", `/v1/conversations/${theirs.conversation_id}`, { token: adminToken });
    await expectStatus(403, "GET", `/v1/conversations/${conversationId}`, { token: reportsOnly });
    // Opening it in one request: the conversation with the newest page of each list.
    const opened = await expectStatus(200, "GET", `/v1/conversations/${conversationId}?include=messages,notes,activity&limit=1`, { token: agent.token });
    expect(opened.body.messages.data.map((m: { id: string }) => m.id)).toEqual([question.id]);
    await expectStatus(400, "GET", `/v1/conversations/${conversationId}?include=everything`, { token: adminToken });
    await expectStatus(400, "GET", `/v1/conversations/${conversationId}?include=messages&limit=0`, { token: adminToken });

    const newest = await expectStatus(200, "GET", `/v1/conversations/${conversationId}/messages?limit=1`, { token: adminToken });
    expect(newest.body.data.map((m: { id: string }) => m.id)).toEqual([question.id]);
    expect(newest.body.pagination.has_more).toBe(true);
    const cursor = encodeURIComponent(newest.body.pagination.next_cursor);
    const older = await expectStatus(200, "GET", `/v1/conversations/${conversationId}/messages?limit=1&cursor=${cursor}`, { token: adminToken });
    expect(older.body.data.map((m: { id: string }) => m.id)).toEqual([photo.id]);
    await expectStatus(400, "GET", `/v1/conversations/${conversationId}/messages?limit=0`, { token: adminToken });
    await expectStatus(404, "GET", `/v1/conversations/${theirs.conversation_id}/messages`, { token: adminToken });
    await expectStatus(403, "GET", `/v1/conversations/${conversationId}/messages`, { token: reportsOnly });

    const inbound = await expectStatus(200, "GET", `/v1/messages/${photo.id}`, { token: agent.token });
    expect(inbound.body).toMatchObject({ direction: "inbound", status: "received", sender: { type: "contact" }, media: { mime_type: "image/jpeg", caption: "This one?" } });
    await expectStatus(404, "GET", `/v1/messages/${theirs.id}`, { token: adminToken });
    await expectStatus(403, "GET", `/v1/messages/${photo.id}`, { token: reportsOnly });
    const media = await expectStatus(200, "GET", `/v1/messages/${photo.id}/media`, { token: agent.token });
    expect(media.headers.get("content-type")).toBe("image/jpeg");
    await expectStatus(404, "GET", `/v1/messages/${question.id}/media`, { token: adminToken });
    await expectStatus(403, "GET", `/v1/messages/${photo.id}/media`, { token: reportsOnly });

    const taken = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/assign`, { token: agent.token });
    expect(taken.body).toMatchObject({ status: "assigned", assigned_to: agent.user.id, unread_count: 0 });
    const handedOver = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/assign`, { token: agent.token, body: { user_id: admin.id } });
    expect(handedOver.body.assigned_to).toBe(admin.id);
    await expectStatus(400, "POST", `/v1/conversations/${conversationId}/assign`, { token: adminToken, body: { user_id: "bob" } });
    await expectStatus(404, "POST", `/v1/conversations/${conversationId}/assign`, { token: adminToken, body: { user_id: `usr_${"0".repeat(26)}` } });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/assign`, { token: adminToken });
    await expectStatus(403, "POST", `/v1/conversations/${conversationId}/assign`, { token: reportsOnly });
    const released = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/unassign`, { token: adminToken });
    expect(released.body).toMatchObject({ status: "open", assigned_to: null });
    await expectStatus(409, "POST", `/v1/conversations/${conversationId}/unassign`, { token: adminToken });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/unassign`, { token: adminToken });
    await expectStatus(403, "POST", `/v1/conversations/${conversationId}/unassign`, { token: reportsOnly });
    const closed = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/close`, { token: agent.token });
    expect(closed.body.closed_at).toEqual(expect.any(String));
    await expectStatus(409, "POST", `/v1/conversations/${conversationId}/close`, { token: adminToken });
    await expectStatus(409, "POST", `/v1/conversations/${conversationId}/assign`, { token: adminToken });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/close`, { token: adminToken });
    await expectStatus(403, "POST", `/v1/conversations/${conversationId}/close`, { token: reportsOnly });
    const reopened = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/reopen`, { token: agent.token });
    expect(reopened.body).toMatchObject({ status: "open", closed_at: null });
    await expectStatus(409, "POST", `/v1/conversations/${conversationId}/reopen`, { token: adminToken });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/reopen`, { token: adminToken });
    await expectStatus(403, "POST", `/v1/conversations/${conversationId}/reopen`, { token: reportsOnly });

    // The customer writes into a closed conversation: it reopens without a user.
    await expectStatus(200, "POST", `/v1/conversations/${conversationId}/close`, { token: adminToken });
    await simulateCustomer(adminToken, { from: phone, type: "text", text: "One more thing" });

    const reply = { type: "text", text: "Yes, we have it.", conversation_id: conversationId };
    const key = { "idempotency-key": `reply-${conversationId}` };
    const sent = await expectStatus(201, "POST", "/v1/messages", { token: agent.token, body: reply, headers: key });
    expect(sent.body).toMatchObject({ status: "queued", direction: "outbound", to: phone, text: reply.text, sender: { type: "user", user_id: agent.user.id } });
    const replayed = await expectStatus(201, "POST", "/v1/messages", { token: agent.token, body: reply, headers: key });
    expect(replayed.body.id).toBe(sent.body.id);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    await expectStatus(409, "POST", "/v1/messages", { token: agent.token, body: { ...reply, text: "Something else" }, headers: key });
    await expectStatus(400, "POST", "/v1/messages", { token: adminToken, body: { to: "12", type: "text", text: "Hi" } });
    await expectStatus(400, "POST", "/v1/messages", { token: adminToken, body: { to: phone, type: "image", text: "no media" } });
    await expectStatus(404, "POST", "/v1/messages", { token: adminToken, body: { ...reply, conversation_id: theirs.conversation_id } });
    await expectStatus(403, "POST", "/v1/messages", { token: reportsOnly, body: reply });
    await expectStatus(401, "POST", "/v1/messages", { body: reply });
    const picture = await expectStatus(201, "POST", "/v1/messages", {
      token: adminToken,
      body: { to: nextPhone(), type: "image", media: { mime_type: "image/png", data: PNG.toString("base64"), caption: "Our shop" } },
    });
    expect(picture.body.media).toMatchObject({ mime_type: "image/png", caption: "Our shop", url: `/v1/messages/${picture.body.id}/media` });

    // The sandbox sends, then reports delivered and read a few seconds later.
    await drain(10_000);
    const read = await expectStatus(200, "GET", `/v1/messages/${sent.body.id}`, { token: adminToken });
    expect(read.body.status).toBe("read");

    const polished = await expectStatus(200, "POST", "/v1/messages/polish", { token: agent.token, body: { text: "hi pls send me ur address thx", style: "normal" } });
    expect(polished.body).toMatchObject({ style: "normal", engine: "rules" });
    await expectStatus(400, "POST", "/v1/messages/polish", { token: agent.token, body: { text: "hi", style: "shouty" } });
    await expectStatus(403, "POST", "/v1/messages/polish", { token: reportsOnly, body: { text: "hi", style: "normal" } });
    const polishedPt = await expectStatus(200, "POST", "/v1/messages/polish", { token: agent.token, body: { text: "oi vc tem vaso grande?", style: "concise", language: "pt" } });
    expect(polishedPt.body).toMatchObject({ language: "pt" });
    await expectStatus(400, "POST", "/v1/messages/polish", { token: agent.token, body: { text: "hi", style: "normal", language: "fr" } });

    // Suggested answers from the business's knowledge (the customer's last text is "One more thing").
    const suggestions = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/suggestions`, { token: agent.token, body: {} });
    expect(Array.isArray(suggestions.body.data)).toBe(true);
    await expectStatus(400, "POST", `/v1/conversations/${conversationId}/suggestions`, { token: agent.token, body: [1] });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/suggestions`, { token: agent.token, body: {} });
    await expectStatus(403, "POST", `/v1/conversations/${conversationId}/suggestions`, { token: reportsOnly, body: {} });
    await expectStatus(401, "POST", `/v1/conversations/${conversationId}/suggestions`, { body: {} });

    await expectStatus(403, "DELETE", `/v1/messages/${photo.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/messages/${photo.id}`, { token: adminToken });
    const tombstone = await expectStatus(200, "GET", `/v1/messages/${photo.id}`, { token: adminToken });
    expect(tombstone.body.deleted_at).toEqual(expect.any(String));
    expect(tombstone.body).not.toHaveProperty("media");
    await expectStatus(404, "GET", `/v1/messages/${photo.id}/media`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/messages/${theirs.id}`, { token: adminToken });

    // Deleting the assignee releases the conversation (conversation.unassigned with the deleted user).
    await expectStatus(200, "POST", `/v1/conversations/${conversationId}/assign`, { token: adminToken, body: { user_id: agent.user.id } });
    await expectStatus(403, "DELETE", `/v1/conversations/${conversationId}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/users/${agent.user.id}`, { token: adminToken });
    const unassigned = await expectStatus(200, "GET", `/v1/conversations/${conversationId}`, { token: adminToken });
    expect(unassigned.body).toMatchObject({ status: "open", assigned_to: null });

    await expectStatus(204, "DELETE", `/v1/conversations/${conversationId}`, { token: adminToken });
    await expectStatus(404, "GET", `/v1/conversations/${conversationId}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/conversations/${conversationId}`, { token: adminToken });
  });

  it("configuration routes answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const usersOnly = await scopedToken(adminToken, ["users:read"]);

    const profile = await expectStatus(200, "GET", "/v1/config/business-profile", { token: agent.token });
    await expectStatus(403, "GET", "/v1/config/business-profile", { token: usersOnly });
    const hours = { timezone: "Europe/Madrid", weekly: { mon: [{ open: "09:00", close: "18:00" }], sat: [{ open: "10:00", close: "14:00" }] } };
    // What was read can be sent back: the read-only fields are ignored.
    const saved = await expectStatus(200, "PUT", "/v1/config/business-profile", {
      token: adminToken,
      body: {
        ...profile.body,
        name: "Green Corner",
        description: "Indoor plants and pots.",
        hours,
        auto_reply: { outside_hours: { enabled: true, message: "We are closed now." }, hours_question: { enabled: true } },
      },
    });
    expect(saved.body).toMatchObject({ name: "Green Corner", hours: { timezone: "Europe/Madrid", weekly: { sun: [] } }, open_now: expect.any(Boolean) });
    await expectStatus(400, "PUT", "/v1/config/business-profile", { token: adminToken, body: { name: "" } });
    await expectStatus(403, "PUT", "/v1/config/business-profile", { token: agent.token, body: saved.body });
    await expectStatus(401, "GET", "/v1/config/business-profile");

    const pdf = makePdf(["Opening hours: Monday to Saturday.", "Prices: ferns 12 EUR."]).toString("base64");
    const uploaded = await expectStatus(201, "POST", "/v1/config/documents", { token: adminToken, body: { filename: "guide.pdf", data: pdf } });
    expect(uploaded.body).toMatchObject({ filename: "guide.pdf", pages: 2, text_length: expect.any(Number) });
    await expectStatus(400, "POST", "/v1/config/documents", { token: adminToken, body: { filename: "notes.pdf", data: Buffer.from("not a pdf").toString("base64") } });
    await expectStatus(403, "POST", "/v1/config/documents", { token: agent.token, body: { filename: "guide.pdf", data: pdf } });
    const documents = await expectStatus(200, "GET", "/v1/config/documents", { token: agent.token });
    expect(documents.body.data.map((d: { id: string }) => d.id)).toEqual([uploaded.body.id]);
    await expectStatus(400, "GET", "/v1/config/documents?limit=101", { token: adminToken });
    await expectStatus(403, "GET", "/v1/config/documents", { token: usersOnly });
    const document = await expectStatus(200, "GET", `/v1/config/documents/${uploaded.body.id}`, { token: agent.token });
    expect(document.body.text).toContain("ferns 12 EUR");
    await expectStatus(404, "GET", "/v1/config/documents/doc_unknown", { token: adminToken });
    await expectStatus(403, "GET", `/v1/config/documents/${uploaded.body.id}`, { token: usersOnly });
    const file = await expectStatus(200, "GET", `/v1/config/documents/${uploaded.body.id}/file`, { token: agent.token });
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.text.startsWith("%PDF-")).toBe(true);
    await expectStatus(404, "GET", "/v1/config/documents/doc_unknown/file", { token: adminToken });
    await expectStatus(403, "GET", `/v1/config/documents/${uploaded.body.id}/file`, { token: usersOnly });
    for (let i = 2; i <= 20; i++) await uploadDocument({ ctx: verbContext({ accountId: account.id }), input: { filename: `page-${i}.pdf`, data: pdf } });
    await expectStatus(409, "POST", "/v1/config/documents", { token: adminToken, body: { filename: "one-too-many.pdf", data: pdf } });
    await expectStatus(403, "DELETE", `/v1/config/documents/${uploaded.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/config/documents/${uploaded.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/config/documents/${uploaded.body.id}`, { token: adminToken });

    const sandbox = await expectStatus(200, "GET", "/v1/config/number", { token: agent.token });
    expect(sandbox.body).toMatchObject({ provider: "sandbox", status: "sandbox", access_token_set: false });
    await expectStatus(403, "GET", "/v1/config/number", { token: usersOnly });
    const sandboxTest = await expectStatus(200, "POST", "/v1/config/number/test", { token: adminToken });
    expect(sandboxTest.body).toMatchObject({ ok: true, status: "sandbox" });
    await expectStatus(403, "POST", "/v1/config/number/test", { token: agent.token });
    await expectStatus(200, "PUT", "/v1/config/number", { token: adminToken, body: { provider: "sandbox" } });
    await expectStatus(400, "PUT", "/v1/config/number", { token: adminToken, body: { provider: "cloud" } });
    await expectStatus(403, "PUT", "/v1/config/number", { token: agent.token, body: { provider: "sandbox" } });

    const accessToken = "EAAG-contract-network-token-123456";
    const phoneNumberId = `3065403522${Date.now() % 100_000}`;
    const network = await startFakeCloudNetwork({ accessToken, phoneNumberId });
    // The fake network listens on loopback, which the URL policy allows only with this switch.
    const restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
    try {
      const cloud = {
        provider: "cloud",
        phone_number: "+14155552671",
        phone_number_id: phoneNumberId,
        business_account_id: "102290129340398",
        access_token: accessToken,
        app_secret: "contract-app-secret-0123456789",
        verify_token: `contract-verify-${phoneNumberId}`,
        api_base_url: network.apiBaseUrl,
      };
      const configured = await expectStatus(200, "PUT", "/v1/config/number", { token: adminToken, body: cloud });
      expect(configured.body).toMatchObject({ provider: "cloud", status: "pending", access_token_set: true, app_secret_set: true });
      expect(configured.body).not.toHaveProperty("access_token");
      const connected = await expectStatus(200, "POST", "/v1/config/number/test", { token: adminToken });
      expect(connected.body).toMatchObject({ ok: true, status: "connected" });
      const rival = await createTestAccount();
      await expectStatus(409, "PUT", "/v1/config/number", { token: rival.adminToken, body: cloud });

      // A send the network refuses for good ends as failed, with the network's error.
      network.failAll({ status: 400, body: { error: { message: "Recipient is not on the network", type: "OAuthException", code: 131026 } } });
      const refused = await expectStatus(201, "POST", "/v1/messages", { token: adminToken, body: { to: nextPhone(), type: "text", text: "Hello?" } });
      await drain();
      const failed = await expectStatus(200, "GET", `/v1/messages/${refused.body.id}`, { token: adminToken });
      expect(failed.body).toMatchObject({ status: "failed", error: { code: "131026" } });

      // A customer's message edited from their phone: message.updated, and the history for admins.
      const signedWebhook = (payload: unknown) => {
        const rawBody = JSON.stringify(payload);
        return callHandler(networkWebhookRoute.POST, {
          method: "POST",
          path: "/api/network/webhook",
          rawBody,
          headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret: cloud.app_secret, rawBody }) },
        });
      };
      const customer = nextPhone();
      expect((await signedWebhook(buildInboundPayload({ phoneNumberId, messages: [{ from: customer, id: `wamid.C${phoneNumberId}`, type: "text", text: "2 pots" }] }))).status).toBe(200);
      expect((await signedWebhook(buildEditPayload({ phoneNumberId, from: customer, originalId: `wamid.C${phoneNumberId}`, text: "3 pots" }))).status).toBe(200);
      const [edited] = await getDb().select().from(events).where(eq(events.type, "message.updated"));
      const editedId = (edited.data as { message: { id: string } }).message.id;
      const withHistory = await expectStatus(200, "GET", `/v1/messages/${editedId}`, { token: adminToken });
      expect(withHistory.body).toMatchObject({ text: "3 pots", history: [{ text: "2 pots", change: "edited" }] });
    } finally {
      restoreEnv();
      await network.close();
    }
  });

  it("label, snooze, search and contact routes answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const readOnly = await scopedToken(adminToken, ["reports:read"]);
    const phone = nextPhone();
    const first = await simulateCustomer(adminToken, { from: phone, name: "Ana Gómez", type: "text", text: "¿Me la entregá mañana?" });
    const conversationId = first.conversation_id;

    const vip = await expectStatus(201, "POST", "/v1/labels", { token: adminToken, body: { name: "VIP", color: "#16a34a" } });
    await expectStatus(409, "POST", "/v1/labels", { token: adminToken, body: { name: "vip", color: "#000000" } });
    await expectStatus(400, "POST", "/v1/labels", { token: adminToken, body: { name: "", color: "green" } });
    await expectStatus(403, "POST", "/v1/labels", { token: agent.token, body: { name: "Mine", color: "#000000" } });
    await expectStatus(200, "GET", "/v1/labels", { token: agent.token });
    await expectStatus(400, "GET", "/v1/labels?limit=0", { token: agent.token });
    await expectStatus(403, "GET", "/v1/labels", { token: readOnly });

    const labeled = await expectStatus(200, "PUT", `/v1/conversations/${conversationId}/labels`, { token: agent.token, body: { label_ids: [vip.body.id] } });
    expect(labeled.body.labels).toEqual([{ id: vip.body.id, name: "VIP", color: "#16a34a" }]);
    await expectStatus(400, "PUT", `/v1/conversations/${conversationId}/labels`, { token: agent.token, body: { label_ids: [`lbl_${"0".repeat(26)}`] } });
    await expectStatus(404, "PUT", "/v1/conversations/conv_unknown/labels", { token: agent.token, body: { label_ids: [] } });
    await expectStatus(403, "PUT", `/v1/conversations/${conversationId}/labels`, { token: readOnly, body: { label_ids: [] } });
    const filtered = await expectStatus(200, "GET", `/v1/conversations?label=${vip.body.id}`, { token: agent.token });
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([conversationId]);

    const until = new Date(Date.now() + HOUR).toISOString();
    const snoozed = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/snooze`, { token: agent.token, body: { until } });
    expect(snoozed.body).toMatchObject({ status: "snoozed", snoozed_until: until });
    await expectStatus(200, "GET", "/v1/conversations?status=snoozed", { token: agent.token });
    await expectStatus(400, "POST", `/v1/conversations/${conversationId}/snooze`, { token: agent.token, body: { until: days(91) } });
    await expectStatus(404, "POST", "/v1/conversations/conv_unknown/snooze", { token: agent.token, body: { until } });
    await expectStatus(403, "POST", `/v1/conversations/${conversationId}/snooze`, { token: readOnly, body: { until } });
    // The customer's next message wakes it (conversation.reopened without a user).
    await simulateCustomer(adminToken, { from: phone, type: "text", text: "¿Hola?" });

    const found = await expectStatus(200, "GET", "/v1/search?q=gomez", { token: agent.token });
    expect(found.body.data[0]).toMatchObject({ conversation: { id: conversationId }, match: { field: "name" } });
    const byText = await expectStatus(200, "GET", "/v1/search?q=ENTREGA&limit=1", { token: agent.token });
    expect(byText.body.data[0].match).toMatchObject({ field: "message", message_id: first.id });
    await expectStatus(400, "GET", "/v1/search?q=a", { token: agent.token });
    await expectStatus(403, "GET", "/v1/search?q=gomez", { token: readOnly });

    const contacts = await expectStatus(200, "GET", "/v1/contacts?q=gomez", { token: agent.token });
    const contactId = contacts.body.data[0].id;
    await expectStatus(400, "GET", "/v1/contacts?limit=500", { token: agent.token });
    await expectStatus(403, "GET", "/v1/contacts", { token: readOnly });
    await expectStatus(200, "GET", `/v1/contacts/${contactId}`, { token: agent.token });
    await expectStatus(404, "GET", "/v1/contacts/ctc_unknown", { token: agent.token });
    await expectStatus(403, "GET", `/v1/contacts/${contactId}`, { token: readOnly });
    const edited = await expectStatus(200, "PATCH", `/v1/contacts/${contactId}`, {
      token: agent.token,
      body: { name: "Ana G.", email: "ana@example.com", notes: "Prefers mornings", attributes: { plan: "gold" } },
    });
    expect(edited.body).toMatchObject({ name: "Ana G.", attributes: { plan: "gold" }, blocked: false, conversations_count: 1 });
    await expectStatus(400, "PATCH", `/v1/contacts/${contactId}`, { token: agent.token, body: {} });
    await expectStatus(404, "PATCH", "/v1/contacts/ctc_unknown", { token: agent.token, body: { name: "X" } });
    await expectStatus(403, "PATCH", `/v1/contacts/${contactId}`, { token: readOnly, body: { name: "X" } });
    const csv = await expectStatus(200, "GET", "/v1/contacts/export", { token: agent.token });
    expect(csv.text.split("\r\n")[1]).toContain("Ana G.");
    await expectStatus(403, "GET", "/v1/contacts/export", { token: readOnly });

    await expectStatus(200, "PATCH", `/v1/contacts/${contactId}`, { token: adminToken, body: { blocked: true } });
    const refused = await expectStatus(409, "POST", "/v1/messages", { token: adminToken, body: { to: phone, type: "text", text: "Hello" } });
    expect(refused.body.error.code).toBe("contact_blocked");

    await expectStatus(403, "DELETE", `/v1/labels/${vip.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/labels/${vip.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/labels/${vip.body.id}`, { token: adminToken });
  });

  it("template routes, every message kind and the customer-service window answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const body = { name: "order_ready", language: "en_US", category: "UTILITY", components: { header: { text: "Order update" }, body: { text: "Hi {{1}}, order {{2}} is ready." }, footer: { text: "Plant shop" }, buttons: [{ type: "QUICK_REPLY", text: "Thanks" }] } };
    const created = await expectStatus(201, "POST", "/v1/templates", { token: adminToken, body });
    expect(created.body).toMatchObject({ status: "PENDING", variables: 2 });
    await expectStatus(409, "POST", "/v1/templates", { token: adminToken, body });
    await expectStatus(400, "POST", "/v1/templates", { token: adminToken, body: { ...body, name: "Bad Name" } });
    await expectStatus(403, "POST", "/v1/templates", { token: agent.token, body: { ...body, name: "by_agent" } });
    await expectStatus(200, "GET", "/v1/templates?limit=5", { token: agent.token });
    await expectStatus(400, "GET", "/v1/templates?limit=500", { token: adminToken });
    await expectStatus(404, "GET", "/v1/templates/tpl_unknown", { token: adminToken });
    await drain(2_500);
    const approved = await expectStatus(200, "GET", `/v1/templates/${created.body.id}`, { token: adminToken });
    expect(approved.body.status).toBe("APPROVED");

    const phone = nextPhone();
    const first = await simulateCustomer(adminToken, { from: phone, name: "Ines", type: "text", text: "Is my order ready?" });
    for (const kind of [
      { type: "location", location: { latitude: 41.39, longitude: 2.17, name: "Home" } },
      { type: "contacts", contacts: [{ name: "Pau", phones: ["+34600000001"], emails: ["pau@example.com"] }] },
      { type: "interactive", interactive: { type: "list_reply", id: "5", title: "Excellent" } },
      { type: "button", button: { text: "Thanks", payload: "Thanks" } },
      { type: "unsupported", unsupported: { network_type: "order" } },
      { type: "reaction", reaction: { message_id: first.id, emoji: "👍" } },
      { type: "text", text: "Hello?", context: { message_id: first.id } },
    ]) {
      await simulateCustomer(adminToken, { from: phone, ...kind });
    }
    const withReaction = await expectStatus(200, "GET", `/v1/messages/${first.id}`, { token: adminToken });
    expect(withReaction.body.reactions).toEqual([{ emoji: "👍", from: phone }]);
    const conversation = await expectStatus(200, "GET", `/v1/conversations/${first.conversation_id}`, { token: adminToken });
    expect(conversation.body.service_window_expires_at).toEqual(expect.any(String));

    for (const kind of [
      { type: "location", location: { latitude: 41.4, longitude: 2.2, address: "Shop" } },
      { type: "interactive", interactive: { type: "button", body: "Pick-up or delivery?", buttons: [{ id: "pick", title: "Pick-up" }, { id: "del", title: "Delivery" }] } },
      { type: "reaction", reaction: { message_id: first.id, emoji: "🙏" } },
      { type: "template", template: { name: "order_ready", language: "en_US", variables: ["Ines", "#7"] } },
      { type: "text", text: "Yes, it is", context: { message_id: first.id } },
    ]) {
      await expectStatus(201, "POST", "/v1/messages", { token: adminToken, body: { to: phone, ...kind } });
    }
    await expectStatus(400, "POST", "/v1/messages", { token: adminToken, body: { to: phone, type: "template", template: { name: "order_ready", language: "en_US", variables: [] } } });
    await drain(10_000);
    const thread = await expectStatus(200, "GET", `/v1/conversations/${first.conversation_id}/messages?limit=50`, { token: adminToken });
    expect(new Set(thread.body.data.map((m: { type: string }) => m.type))).toEqual(
      new Set(["text", "location", "contacts", "interactive", "button", "unsupported", "reaction", "template"]),
    );

    // A week later the window has closed: free-form is a 409, the template still goes out.
    await getDb().execute(sql`update conversations set service_window_expires_at = now() - interval '6 days' where id = ${first.conversation_id}`);
    const closed = await expectStatus(409, "POST", "/v1/messages", { token: adminToken, body: { to: phone, type: "text", text: "Still there?" } });
    expect(closed.body.error.code).toBe("outside_service_window");
    await expectStatus(201, "POST", "/v1/messages", { token: adminToken, body: { to: phone, type: "template", template: { name: "order_ready", language: "en_US", variables: ["Ines", "#8"] } } });

    await expectStatus(403, "DELETE", `/v1/templates/${created.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/templates/${created.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/templates/${created.body.id}`, { token: adminToken });
    expect(account.id).toMatch(/^acc_/);
  });

  it("report routes answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const usersOnly = await scopedToken(adminToken, ["users:read"]);
    await simulateCustomer(adminToken, { from: nextPhone(), type: "text", text: "Hi there" });

    const summary = await expectStatus(200, "GET", "/v1/reports/summary", { token: agent.token });
    expect(summary.body).toMatchObject({ tz: "UTC", conversations: { created: 1, open_now: 1 }, messages: { received: 1 } });
    expect(summary.body.agents.map((a: { user_id: string }) => a.user_id)).toContain(agent.user.id);
    await expectStatus(200, "GET", "/v1/reports/summary?from=2026-01-01&to=2026-01-31&tz=Europe/Madrid", { token: adminToken });
    await expectStatus(400, "GET", "/v1/reports/summary?from=yesterday", { token: adminToken });
    await expectStatus(403, "GET", "/v1/reports/summary", { token: usersOnly });

    const series = await expectStatus(200, "GET", "/v1/reports/timeseries?metric=messages_received&interval=hour", { token: adminToken });
    expect(series.body.data.reduce((sum: number, point: { value: number }) => sum + point.value, 0)).toBe(1);
    await expectStatus(400, "GET", "/v1/reports/timeseries", { token: adminToken });
    await expectStatus(403, "GET", "/v1/reports/timeseries?metric=messages_sent", { token: usersOnly });

    const agents = await expectStatus(200, "GET", "/v1/reports/agents", { token: agent.token });
    expect(agents.body.data.map((a: { user: { id: string } }) => a.user.id)).toContain(agent.user.id);
    await expectStatus(400, "GET", "/v1/reports/agents?from=2026-03-01&to=2026-02-01", { token: adminToken });
    await expectStatus(400, "GET", "/v1/reports/agents?from=2025-01-01&to=2026-02-01", { token: adminToken });
    await expectStatus(403, "GET", "/v1/reports/agents", { token: usersOnly });
    await expectStatus(401, "GET", "/v1/reports/agents");

    const heatmap = await expectStatus(200, "GET", "/v1/reports/heatmap", { token: agent.token });
    expect(heatmap.body).toMatchObject({ total: 1, time_zone: "UTC" });
    await expectStatus(400, "GET", "/v1/reports/heatmap?from=2026-03-01&to=2026-02-01", { token: adminToken });
    await expectStatus(403, "GET", "/v1/reports/heatmap", { token: usersOnly });

    const csv = await expectStatus(200, "GET", "/v1/reports/export", { token: agent.token });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(2);
    await expectStatus(400, "GET", "/v1/reports/export?from=2024-01-01&to=2026-01-01", { token: adminToken });
    await expectStatus(403, "GET", "/v1/reports/export", { token: usersOnly });
  });

  it("satisfaction survey settings answer as documented, and an answer rates the conversation", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);

    const initial = await expectStatus(200, "GET", "/v1/config/csat", { token: agent.token });
    expect(initial.body).toMatchObject({ enabled: false });
    await expectStatus(403, "GET", "/v1/config/csat", { token: reportsOnly });
    await expectStatus(401, "GET", "/v1/config/csat");
    await expectStatus(400, "PUT", "/v1/config/csat", { token: adminToken, body: { enabled: true, question: "" } });
    await expectStatus(400, "PUT", "/v1/config/csat", { token: adminToken, body: { enabled: "yes", question: "How did we do?" } });
    await expectStatus(403, "PUT", "/v1/config/csat", { token: agent.token, body: { enabled: true, question: "How did we do?" } });
    const saved = await expectStatus(200, "PUT", "/v1/config/csat", { token: adminToken, body: { enabled: true, question: "How did we do?" } });
    expect(saved.body).toEqual({ enabled: true, question: "How did we do?" });

    const phone = nextPhone();
    const first = await simulateCustomer(adminToken, { from: phone, type: "text", text: "Where is my order?" });
    await expectStatus(200, "POST", `/v1/conversations/${first.conversation_id}/close`, { token: agent.token });
    await drain();
    await simulateCustomer(adminToken, { from: phone, type: "interactive", interactive: { type: "list_reply", id: "csat_4", title: "4 - Good" } });
    const rated = await expectStatus(200, "GET", `/v1/conversations/${first.conversation_id}`, { token: agent.token });
    expect(rated.body).toMatchObject({ status: "closed", csat: { score: 4 } });
  });

  describe("webhook routes", () => {
    let restoreEnv: () => void;
    let healthy: WebhookReceiver;
    let broken: WebhookReceiver;

    beforeAll(async () => {
      restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_RETRY_SCHEDULE: undefined });
      healthy = await startReceiver();
      broken = await startReceiver();
      broken.respond(() => ({ status: 503, body: "down for maintenance" }));
    });

    afterAll(async () => {
      await healthy?.close();
      await broken?.close();
      restoreEnv?.();
    });

    it("answer as documented, and every delivered body matches its documented webhook", async () => {
      const { account, adminToken } = await createTestAccount();
      const agent = await addTestUser(account.id, "agent");

      const body = { url: healthy.url, events: ["*"] };
      const key = { "idempotency-key": `hook-${account.id}` };
      const watcher = await expectStatus(201, "POST", "/v1/webhooks", { token: adminToken, body, headers: key });
      expect(watcher.body).toMatchObject({ url: healthy.url, events: ["*"], status: "active", secret: expect.stringMatching(/^whsec_/) });
      const replayed = await expectStatus(201, "POST", "/v1/webhooks", { token: adminToken, body, headers: key });
      expect(replayed.body.id).toBe(watcher.body.id);
      await expectStatus(409, "POST", "/v1/webhooks", { token: adminToken, body: { ...body, events: ["plant.created"] }, headers: key });
      await expectStatus(400, "POST", "/v1/webhooks", { token: adminToken, body: { url: healthy.url, events: ["plant.grown"] } });
      await expectStatus(400, "POST", "/v1/webhooks", { token: adminToken, body: { url: "ftp://example.com/hook", events: ["*"] } });
      await expectStatus(403, "POST", "/v1/webhooks", { token: agent.token, body });
      // The broken endpoint answers its challenge, then fails every delivery.
      const failing = await expectStatus(201, "POST", "/v1/webhooks", { token: adminToken, body: { url: broken.url, events: ["plant.created"] } });
      expect(failing.body.status).toBe("active");

      const list = await expectStatus(200, "GET", "/v1/webhooks?limit=10", { token: adminToken });
      expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([watcher.body.id, failing.body.id]);
      expect(list.body.data[0]).not.toHaveProperty("secret");
      await expectStatus(400, "GET", "/v1/webhooks?limit=abc", { token: adminToken });
      await expectStatus(403, "GET", "/v1/webhooks", { token: agent.token });
      await expectStatus(200, "GET", `/v1/webhooks/${watcher.body.id}`, { token: adminToken });
      await expectStatus(404, "GET", "/v1/webhooks/wh_unknown", { token: adminToken });
      await expectStatus(403, "GET", `/v1/webhooks/${watcher.body.id}`, { token: agent.token });

      const patched = await expectStatus(200, "PATCH", `/v1/webhooks/${watcher.body.id}`, {
        token: adminToken,
        body: { events: ["plant.created", "webhook.failed"] },
      });
      expect(patched.body.events).toEqual(["plant.created", "webhook.failed"]);
      await expectStatus(400, "PATCH", `/v1/webhooks/${watcher.body.id}`, { token: adminToken, body: {} });
      await expectStatus(404, "PATCH", "/v1/webhooks/wh_unknown", { token: adminToken, body: { status: "disabled" } });
      await expectStatus(403, "PATCH", `/v1/webhooks/${watcher.body.id}`, { token: agent.token, body: { status: "disabled" } });
      const verified = await expectStatus(200, "POST", `/v1/webhooks/${watcher.body.id}/verify`, { token: adminToken });
      expect(verified.body.status).toBe("active");
      await expectStatus(404, "POST", "/v1/webhooks/wh_unknown/verify", { token: adminToken });
      await expectStatus(403, "POST", `/v1/webhooks/${watcher.body.id}/verify`, { token: agent.token });

      // A new plant goes to both; the broken endpoint fails five times and the watcher hears of it.
      await expectStatus(200, "POST", "/plant-store/plants", { token: adminToken, body: { name: "Fern" } });
      await drain();
      await drain(5 * HOUR);
      expect(healthy.deliveries().map((r) => r.headers["x-service-event-type"]).sort()).toEqual(["plant.created", "webhook.failed"]);
      expect(broken.deliveries()).toHaveLength(5);

      const logs = await expectStatus(200, "GET", `/v1/webhooks/${watcher.body.id}/logs?status=succeeded`, { token: adminToken });
      const plantAttempt = logs.body.data.find((a: { event_type: string }) => a.event_type === "plant.created");
      const challenge = logs.body.data.find((a: { event_type: string }) => a.event_type === "webhook.verified");
      expect(plantAttempt).toMatchObject({ attempt: 1, status: "succeeded", response_status: 200 });
      const failures = await expectStatus(200, "GET", `/v1/webhooks/${failing.body.id}/logs?status=failed&limit=10`, { token: adminToken });
      expect(failures.body.data.map((a: { attempt: number }) => a.attempt)).toEqual([5, 4, 3, 2, 1]);
      await expectStatus(400, "GET", `/v1/webhooks/${failing.body.id}/logs?status=lost`, { token: adminToken });
      await expectStatus(404, "GET", "/v1/webhooks/wh_unknown/logs", { token: adminToken });
      await expectStatus(403, "GET", `/v1/webhooks/${failing.body.id}/logs`, { token: agent.token });

      const stats = await expectStatus(200, "GET", `/v1/webhooks/${failing.body.id}/stats?window=7d`, { token: adminToken });
      expect(stats.body).toMatchObject({ window: "7d", failed: 5, consecutive_failures: 1 });
      await expectStatus(400, "GET", `/v1/webhooks/${failing.body.id}/stats?window=1y`, { token: adminToken });
      await expectStatus(404, "GET", "/v1/webhooks/wh_unknown/stats", { token: adminToken });
      await expectStatus(403, "GET", `/v1/webhooks/${failing.body.id}/stats`, { token: agent.token });

      const retry = (hook: string, delivery: string) => `/v1/webhooks/${hook}/deliveries/${delivery}/retry`;
      const again = await expectStatus(201, "POST", retry(watcher.body.id, plantAttempt.delivery_id), { token: adminToken });
      expect(again.body).toMatchObject({ delivery_id: plantAttempt.delivery_id, event_id: plantAttempt.event_id, attempt: 2, status: "succeeded" });
      await expectStatus(409, "POST", retry(watcher.body.id, challenge.delivery_id), { token: adminToken });
      await expectStatus(404, "POST", retry(watcher.body.id, "dlv_unknown"), { token: adminToken });
      await expectStatus(403, "POST", retry(watcher.body.id, plantAttempt.delivery_id), { token: agent.token });

      const received = [...healthy.requests, ...broken.requests];
      expect(received.length).toBeGreaterThan(8);
      for (const request of received) expect(v1.checkWebhook(request.headers["x-service-event-type"], request.json)).toEqual([]);

      await expectStatus(403, "DELETE", `/v1/webhooks/${failing.body.id}`, { token: agent.token });
      await expectStatus(204, "DELETE", `/v1/webhooks/${failing.body.id}`, { token: adminToken });
      await expectStatus(404, "DELETE", `/v1/webhooks/${failing.body.id}`, { token: adminToken });
    });
  });

  it("team administration routes answer as documented", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const usersOnly = await scopedToken(adminToken, ["users:read"]);
    const redirect = "https://crm.example.com/callback";

    const app = await expectStatus(201, "POST", "/v1/apps", {
      token: adminToken,
      body: { name: "Acme CRM", redirect_uris: [redirect], allowed_scopes: ["users:read", "conversations:read"], client_type: "confidential" },
    });
    expect(app.body.client_secret).toEqual(expect.any(String));
    await expectStatus(400, "POST", "/v1/apps", { token: adminToken, body: { name: "Bad", redirect_uris: ["http://crm.example.com/cb"], allowed_scopes: ["users:read"] } });
    await expectStatus(403, "POST", "/v1/apps", { token: agent.token, body: { name: "A", redirect_uris: [redirect], allowed_scopes: ["users:read"] } });
    await expectStatus(401, "POST", "/v1/apps", { body: { name: "A", redirect_uris: [redirect], allowed_scopes: ["users:read"] } });
    const apps = await expectStatus(200, "GET", "/v1/apps?limit=10", { token: adminToken });
    expect(apps.body.data[0]).not.toHaveProperty("client_secret");
    await expectStatus(400, "GET", "/v1/apps?limit=0", { token: adminToken });
    await expectStatus(403, "GET", "/v1/apps", { token: usersOnly });

    // An app's access token (through the consent flow) cannot use /v1/auth/refresh.
    const verifier = "v".repeat(43);
    const check = await checkAuthorizeRequest(
      systemContext().db,
      { client_id: app.body.client_id, redirect_uri: redirect, response_type: "code", scope: "users:read", state: "s", code_challenge: s256(verifier), code_challenge_method: "S256" },
      { role: "admin", accountId: account.id },
    );
    if (!check.ok) throw new Error(check.message);
    const { cookie } = await sessionCookie(admin);
    const consented = await postConsent({ cookie, consent: await signConsent(check.request, admin.id), decision: "allow" });
    const code = new URL(consented.headers.get("location")!).searchParams.get("code")!;
    const tokens = await postForm("/oauth/token", { grant_type: "authorization_code", code, redirect_uri: redirect, code_verifier: verifier, client_id: app.body.client_id, client_secret: app.body.client_secret });
    expect(tokens.status).toBe(200);
    await expectStatus(200, "GET", "/v1/users", { token: tokens.body.access_token });
    await expectStatus(403, "POST", "/v1/auth/refresh", { token: tokens.body.access_token, body: {} });

    await expectStatus(403, "DELETE", `/v1/apps/${app.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/apps/${app.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/apps/${app.body.id}`, { token: adminToken });

    const invited = await expectStatus(201, "POST", "/v1/invitations", { token: adminToken, body: { email: `new-${Date.now()}@example.com`, role: "agent" } });
    expect(invited.body.url).toMatch(/\/invite\//);
    await expectStatus(400, "POST", "/v1/invitations", { token: adminToken, body: { email: admin.email, role: "agent" } });
    await expectStatus(403, "POST", "/v1/invitations", { token: agent.token, body: { email: "x@example.com", role: "agent" } });
    const pending = await expectStatus(200, "GET", "/v1/invitations", { token: adminToken });
    expect(pending.body.data[0]).toMatchObject({ id: invited.body.id, status: "pending" });
    await expectStatus(403, "GET", "/v1/invitations", { token: agent.token });
    await expectStatus(200, "POST", `/v1/invitations/${invited.body.id}/resend`, { token: adminToken });
    await expectStatus(403, "POST", `/v1/invitations/${invited.body.id}/resend`, { token: agent.token });
    await expectStatus(404, "POST", "/v1/invitations/inv_unknown/resend", { token: adminToken });
    await expectStatus(403, "DELETE", `/v1/invitations/${invited.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/invitations/${invited.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/invitations/${invited.body.id}`, { token: adminToken });

    const reset = await expectStatus(201, "POST", `/v1/users/${agent.user.id}/password-reset`, { token: adminToken });
    expect(reset.body.url).toMatch(/\/reset-password\//);
    await expectStatus(404, "POST", "/v1/users/usr_unknown/password-reset", { token: adminToken });
    await expectStatus(403, "POST", `/v1/users/${agent.user.id}/password-reset`, { token: agent.token });

    await expectStatus(400, "POST", "/v1/auth/password", { token: agent.token, body: { current_password: "not the password", new_password: "a brand new passphrase" } });
    await expectStatus(403, "POST", "/v1/auth/password", { token: usersOnly, body: { current_password: TEST_PASSWORD, new_password: "a brand new passphrase" } });
    await expectStatus(204, "POST", "/v1/auth/password", { token: agent.token, body: { current_password: TEST_PASSWORD, new_password: "a brand new passphrase" } });

    const log = await expectStatus(200, "GET", "/v1/audit-log?limit=50", { token: adminToken });
    expect(log.body.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(["app.created", "app.authorized", "app.deleted", "user.invited", "auth.password_reset_issued", "auth.password_changed"]),
    );
    await expectStatus(200, "GET", `/v1/audit-log?action=app.created&actor=${admin.id}&from=2026-01-01T00:00:00Z&to=2099-01-01T00:00:00Z`, { token: adminToken });
    await expectStatus(400, "GET", "/v1/audit-log?action=nothing", { token: adminToken });
    await expectStatus(403, "GET", "/v1/audit-log", { token: agent.token });

    // The account's sign-in rules: administrators only; requiring a second factor needs one's own first.
    expect((await expectStatus(200, "GET", "/v1/config/security", { token: adminToken })).body).toEqual({ require_mfa: false });
    await expectStatus(403, "GET", "/v1/config/security", { token: agent.token });
    await expectStatus(403, "PUT", "/v1/config/security", { token: agent.token, body: { require_mfa: false } });
    await expectStatus(400, "PUT", "/v1/config/security", { token: adminToken, body: { require_mfa: "yes" } });
    await expectStatus(409, "PUT", "/v1/config/security", { token: adminToken, body: { require_mfa: true } });
    expect((await expectStatus(200, "PUT", "/v1/config/security", { token: adminToken, body: { require_mfa: false } })).body).toEqual({ require_mfa: false });

    // Two-factor sign-in: the second step and the account-wide requirement.
    const { secret } = await startMfaEnrolment({ ctx: verbContext({ accountId: account.id, user: admin }) });
    await confirmMfaEnrolment({ ctx: verbContext({ accountId: account.id, user: admin }), code: new TOTP({ issuer: "Chorus", label: admin.email, secret: Secret.fromBase32(secret) }).generate() });
    const mfa = await expectStatus(401, "POST", "/v1/auth/login", { body: { email: admin.email, password: TEST_PASSWORD }, headers: { [PEER_ADDRESS_HEADER]: "192.0.2.44" } });
    expect(mfa.body.error.code).toBe("mfa_required");
    await setMfaRequirement({ ctx: verbContext({ accountId: account.id, user: admin }), required: true });
    const enrol = await expectStatus(403, "POST", "/v1/auth/login", { body: { email: agent.user.email, password: "a brand new passphrase" }, headers: { [PEER_ADDRESS_HEADER]: "192.0.2.44" } });
    expect(enrol.body.error.code).toBe("mfa_enrollment_required");
    // The session opened before the set-up did not pass the second factor; one opened with a code did.
    expect((await expectStatus(403, "GET", "/v1/config/security", { token: adminToken })).body.error.code).toBe("mfa_required");
    const withCode = await expectStatus(200, "POST", "/v1/auth/login", {
      body: { email: admin.email, password: TEST_PASSWORD, otp: new TOTP({ issuer: "Chorus", label: admin.email, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 }) },
      headers: { [PEER_ADDRESS_HEADER]: "192.0.2.45" },
    });
    expect((await expectStatus(200, "GET", "/v1/config/security", { token: withCode.body.token })).body).toEqual({ require_mfa: true });
    await expectStatus(200, "PUT", "/v1/config/security", { token: withCode.body.token, body: { require_mfa: true } });
  });

  it("team inbox routes answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const other = await createTestAccount();
    const stranger = await addTestUser(other.account.id, "agent");
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
    const phone = nextPhone();
    const { conversation_id: id } = await simulateCustomer(adminToken, { from: phone, name: "María", type: "text", text: "Hola" });
    const theirs = await simulateCustomer(other.adminToken, { from: nextPhone(), type: "text", text: "Hello" });

    const note = await expectStatus(201, "POST", `/v1/conversations/${id}/notes`, { token: adminToken, body: { text: "@Alex please call back", mentions: [agent.user.id] } });
    expect(note.body).toMatchObject({ id: expect.stringMatching(/^note_/), mentions: [agent.user.id] });
    await expectStatus(400, "POST", `/v1/conversations/${id}/notes`, { token: adminToken, body: { text: "hi", mentions: [stranger.user.id] } });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/notes`, { token: adminToken, body: { text: "hi" } });
    await expectStatus(403, "POST", `/v1/conversations/${id}/notes`, { token: reportsOnly, body: { text: "hi" } });
    await expectStatus(401, "POST", `/v1/conversations/${id}/notes`, { body: { text: "hi" } });
    await expectStatus(200, "GET", `/v1/conversations/${id}/notes?limit=1`, { token: agent.token });
    await expectStatus(400, "GET", `/v1/conversations/${id}/notes?limit=0`, { token: agent.token });
    await expectStatus(404, "GET", `/v1/conversations/${theirs.conversation_id}/notes`, { token: agent.token });

    const notices = await expectStatus(200, "GET", "/v1/notifications", { token: agent.token });
    expect(notices.body).toMatchObject({ unread_count: 1, data: [{ type: "mention", note_id: note.body.id }] });
    await expectStatus(400, "GET", "/v1/notifications?unread=yes", { token: agent.token });
    await expectStatus(401, "GET", "/v1/notifications");
    const read = await expectStatus(200, "POST", "/v1/notifications/read", { token: agent.token, body: { ids: [notices.body.data[0].id] } });
    expect(read.body).toEqual({ updated: 1, unread_count: 0 });
    await expectStatus(200, "POST", "/v1/notifications/read", { token: agent.token, body: { all: true } });
    await expectStatus(400, "POST", "/v1/notifications/read", { token: agent.token, body: { all: false } });

    await expectStatus(204, "POST", `/v1/conversations/${id}/typing`, { token: agent.token, body: {} });
    await expectStatus(404, "POST", `/v1/conversations/${theirs.conversation_id}/typing`, { token: agent.token, body: {} });
    await expectStatus(403, "POST", `/v1/conversations/${id}/typing`, { token: reportsOnly, body: {} });

    const settings = await expectStatus(200, "GET", "/v1/config/inbox", { token: agent.token });
    expect(settings.body).toEqual({ auto_assign_on_reply: true, send_read_receipts: true, send_typing_indicator: true });
    await expectStatus(403, "PUT", "/v1/config/inbox", { token: agent.token, body: { auto_assign_on_reply: false } });
    await expectStatus(400, "PUT", "/v1/config/inbox", { token: adminToken, body: { auto_assign_on_reply: "no" } });
    // The first reply assigns the conversation to whoever sent it.
    await expectStatus(201, "POST", "/v1/messages", { token: agent.token, body: { type: "text", text: "On it", conversation_id: id } });
    await expectStatus(200, "POST", `/v1/conversations/${id}/close`, { token: adminToken });
    await expectStatus(200, "POST", `/v1/conversations/${id}/reopen`, { token: adminToken });
    await expectStatus(200, "PUT", "/v1/config/inbox", { token: adminToken, body: { auto_assign_on_reply: false } });

    const trail = await expectStatus(200, "GET", `/v1/conversations/${id}/activity`, { token: agent.token });
    expect(trail.body.data.map((a: { type: string }) => a.type)).toEqual(["reopened", "closed", "assigned", "created"]);
    expect(trail.body.data[2]).toMatchObject({ actor: { type: "user", id: agent.user.id }, data: { auto: true } });
    await expectStatus(400, "GET", `/v1/conversations/${id}/activity?cursor=forged`, { token: agent.token });
    await expectStatus(404, "GET", `/v1/conversations/${theirs.conversation_id}/activity`, { token: agent.token });
    await expectStatus(403, "GET", `/v1/conversations/${id}/activity`, { token: reportsOnly });

    const canned = await expectStatus(201, "POST", "/v1/canned-replies", { token: adminToken, body: { shortcut: "hours", text: "Hi {{contact.name}}, we open at 9." } });
    await expectStatus(409, "POST", "/v1/canned-replies", { token: adminToken, body: { shortcut: "hours", text: "Again" } });
    await expectStatus(400, "POST", "/v1/canned-replies", { token: adminToken, body: { shortcut: "No Caps", text: "x" } });
    await expectStatus(403, "POST", "/v1/canned-replies", { token: agent.token, body: { shortcut: "mine", text: "x" } });
    await expectStatus(200, "GET", "/v1/canned-replies?limit=10", { token: agent.token });
    await expectStatus(403, "GET", "/v1/canned-replies", { token: reportsOnly });
    const second = await expectStatus(201, "POST", "/v1/canned-replies", { token: adminToken, body: { shortcut: "bye", text: "Bye {{contact.name}}" } });
    await expectStatus(200, "PATCH", `/v1/canned-replies/${canned.body.id}`, { token: adminToken, body: { text: "We open at 9, {{contact.name}}." } });
    await expectStatus(409, "PATCH", `/v1/canned-replies/${second.body.id}`, { token: adminToken, body: { shortcut: "hours" } });
    await expectStatus(400, "PATCH", `/v1/canned-replies/${second.body.id}`, { token: adminToken, body: {} });
    await expectStatus(404, "PATCH", "/v1/canned-replies/cr_unknown", { token: adminToken, body: { text: "x" } });
    await expectStatus(403, "PATCH", `/v1/canned-replies/${second.body.id}`, { token: agent.token, body: { text: "x" } });
    await expectStatus(204, "DELETE", `/v1/canned-replies/${second.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/canned-replies/${second.body.id}`, { token: adminToken });
    await expectStatus(403, "DELETE", `/v1/canned-replies/${canned.body.id}`, { token: agent.token });
  });

  it("answer assistant routes answer as documented", async () => {
    const llm = await startFakeLlm();
    const undo = setEnv({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: "sk-contract", LLM_MODEL: "contract-model" });
    try {
      const { account, adminToken } = await createTestAccount();
      const agent = await addTestUser(account.id, "agent");
      const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
      await expectStatus(200, "PUT", "/v1/config/business-profile", {
        token: adminToken,
        body: { name: "Vivero Sol", description: "Envíos: llegamos a todo el país en 3 a 5 días hábiles por 9,90 euros.", language: "es", hours: null, auto_reply: { outside_hours: { enabled: false, message: "" }, hours_question: { enabled: false } } },
      });
      const { conversation_id: conversationId } = await simulateCustomer(adminToken, { from: nextPhone(), type: "text", text: "¿cuánto cuesta el envío?" });

      const suggestions = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/suggestions`, { token: agent.token, body: {} });
      expect(suggestions.body).toMatchObject({ window_open: true, draft: true });
      llm.assistantAnswer("El envío cuesta 9,90 euros.", [1]);
      const drafted = await expectStatus(200, "POST", `/v1/conversations/${conversationId}/draft`, { token: agent.token, body: {} });
      expect(drafted.body.sources[0]).toMatchObject({ type: "description" });
      llm.assistantAnswer("El envío cuesta 1,00 euros.", [1]);
      expect((await expectStatus(409, "POST", `/v1/conversations/${conversationId}/draft`, { token: agent.token, body: {} })).body.error.code).toBe("no_answer");
      llm.fail(500);
      await expectStatus(502, "POST", `/v1/conversations/${conversationId}/draft`, { token: agent.token, body: {} });
      await expectStatus(400, "POST", `/v1/conversations/${conversationId}/draft`, { token: agent.token, body: { x: 1 } });
      await expectStatus(403, "POST", `/v1/conversations/${conversationId}/draft`, { token: reportsOnly, body: {} });
      await expectStatus(401, "POST", `/v1/conversations/${conversationId}/draft`, { body: {} });
      await expectStatus(404, "POST", "/v1/conversations/conv_01jd2x8k3f0m6q1v9w4r7t5y2z/draft", { token: agent.token, body: {} });

      await expectStatus(204, "POST", `/v1/conversations/${conversationId}/suggestions/dismissals`, { token: agent.token, body: { suggestion_id: suggestions.body.data[0].id } });
      await expectStatus(400, "POST", `/v1/conversations/${conversationId}/suggestions/dismissals`, { token: agent.token, body: { suggestion_id: "nope" } });
      await expectStatus(404, "POST", `/v1/conversations/${conversationId}/suggestions/dismissals`, { token: agent.token, body: { suggestion_id: "psg_01jd2x8k3f0m6q1v9w4r7t5y2z" } });
      await expectStatus(403, "POST", `/v1/conversations/${conversationId}/suggestions/dismissals`, { token: reportsOnly, body: { suggestion_id: "psg_01jd2x8k3f0m6q1v9w4r7t5y2z" } });

      const initial = await expectStatus(200, "GET", "/v1/config/assistant", { token: adminToken });
      expect(initial.body).toEqual({ answer_outside_hours: false, min_score: 0.1, available: true });
      await expectStatus(401, "GET", "/v1/config/assistant");
      await expectStatus(403, "GET", "/v1/config/assistant", { token: reportsOnly });
      await expectStatus(400, "PUT", "/v1/config/assistant", { token: adminToken, body: { answer_outside_hours: true, min_score: 7 } });
      await expectStatus(403, "PUT", "/v1/config/assistant", { token: agent.token, body: { answer_outside_hours: true, min_score: 0.2 } });
      const saved = await expectStatus(200, "PUT", "/v1/config/assistant", { token: adminToken, body: { answer_outside_hours: true, min_score: 0.2 } });
      expect(saved.body).toEqual({ answer_outside_hours: true, min_score: 0.2, available: true });
    } finally {
      undo();
      await llm.close();
    }
  });

  it("automation and macro routes answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
    const label = await expectStatus(201, "POST", "/v1/labels", { token: adminToken, body: { name: "Urgent", color: "#dc2626" } });
    const rule = { name: "Urgent words", event: "message.received", conditions: [{ field: "message.text", operator: "matches", value: "\\burgent\\b" }], actions: [{ type: "add_label", label_id: label.body.id }, { type: "emit_webhook" }] };
    const created = await expectStatus(201, "POST", "/v1/automations", { token: adminToken, body: rule });
    await expectStatus(400, "POST", "/v1/automations", { token: adminToken, body: { ...rule, conditions: [{ field: "message.text", operator: "matches", value: "(a)\\1" }] } });
    await expectStatus(400, "POST", "/v1/automations", { token: adminToken, body: { ...rule, actions: [{ type: "assign_user", user_id: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z" }] } });
    await expectStatus(403, "POST", "/v1/automations", { token: agent.token, body: rule });
    await expectStatus(401, "POST", "/v1/automations", { body: rule });
    await expectStatus(200, "GET", "/v1/automations?limit=10", { token: agent.token });
    await expectStatus(403, "GET", "/v1/automations", { token: reportsOnly });
    await expectStatus(200, "PATCH", `/v1/automations/${created.body.id}`, { token: adminToken, body: { position: 0, name: "Urgent words!" } });
    await expectStatus(400, "PATCH", `/v1/automations/${created.body.id}`, { token: adminToken, body: {} });
    await expectStatus(404, "PATCH", "/v1/automations/auto_unknown", { token: adminToken, body: { enabled: false } });
    await expectStatus(403, "PATCH", `/v1/automations/${created.body.id}`, { token: agent.token, body: { enabled: false } });
    const { conversation_id: id } = await simulateCustomer(adminToken, { from: nextPhone(), type: "text", text: "This is urgent" });
    const previewed = await expectStatus(200, "POST", "/v1/automations/preview", { token: agent.token, body: { event: "message.received", conditions: rule.conditions } });
    expect(previewed.body).toEqual({ matched: 1, sampled: 1, cut_short: false });
    await expectStatus(400, "POST", "/v1/automations/preview", { token: agent.token, body: { event: "message.received", conditions: [{ field: "nope", operator: "equals", value: "x" }] } });

    const macro = await expectStatus(201, "POST", "/v1/macros", { token: agent.token, body: { name: "Close it", actions: [{ type: "add_note", text: "Done." }, { type: "close" }] } });
    await expectStatus(403, "POST", "/v1/macros", { token: agent.token, body: { name: "Shared", visibility: "account", actions: [{ type: "close" }] } });
    await expectStatus(400, "POST", "/v1/macros", { token: agent.token, body: { name: "Bad", actions: [{ type: "add_label", label_id: "lbl_01jd2x8k3f0m6q1v9w4r7t5y2z" }] } });
    await expectStatus(200, "GET", "/v1/macros", { token: agent.token });
    await expectStatus(200, "PATCH", `/v1/macros/${macro.body.id}`, { token: agent.token, body: { name: "Close it now" } });
    await expectStatus(404, "PATCH", `/v1/macros/${macro.body.id}`, { token: adminToken, body: { name: "x" } });
    const ran = await expectStatus(200, "POST", `/v1/conversations/${id}/macros/${macro.body.id}`, { token: agent.token });
    expect(ran.body.actions).toEqual([{ type: "add_note", result: "done" }, { type: "close", result: "done" }]);
    await expectStatus(404, "POST", `/v1/conversations/${id}/macros/mac_unknown`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/macros/${macro.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/automations/${created.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/automations/${created.body.id}`, { token: adminToken });
  });

  it("team workflow routes answer as documented, and an SLA warns and breaches", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const reportsOnly = await scopedToken(adminToken, ["reports:read"]);
    const unknownTeam = "team_01jd2x8k3f0m6q1v9w4r7t5y2z";

    const me = await expectStatus(200, "GET", "/v1/users/me", { token: agent.token });
    expect(me.body.id).toBe(agent.user.id);
    expect((await expectStatus(200, "PUT", "/v1/users/me/availability", { token: agent.token, body: { availability: "online" } })).body.availability).toBe("online");
    await expectStatus(400, "PUT", "/v1/users/me/availability", { token: agent.token, body: { availability: "away" } });
    await expectStatus(401, "PUT", "/v1/users/me/availability", { body: { availability: "online" } });
    await expectStatus(200, "PUT", "/v1/users/me/availability", { token: adminToken, body: { availability: "offline" } });
    // The interface language: any role, from a session; an API token is refused.
    const spoken = await expectStatus(200, "PATCH", "/v1/users/me", { token: agent.token, body: { locale: "pt-BR" } });
    expect(spoken.body.locale).toBe("pt-BR");
    await expectStatus(400, "PATCH", "/v1/users/me", { token: agent.token, body: { locale: "pt" } });
    await expectStatus(401, "PATCH", "/v1/users/me", { body: { locale: "es" } });
    await expectStatus(403, "PATCH", "/v1/users/me", { token: await scopedToken(adminToken, ["users:read"]), body: { locale: "es" } });

    const team = await expectStatus(201, "POST", "/v1/teams", { token: adminToken, body: { name: "Sales", members: [agent.user.id] } });
    await expectStatus(409, "POST", "/v1/teams", { token: adminToken, body: { name: "sales" } });
    await expectStatus(400, "POST", "/v1/teams", { token: adminToken, body: { name: "Support", members: ["usr_01jd2x8k3f0m6q1v9w4r7t5y2z"] } });
    await expectStatus(403, "POST", "/v1/teams", { token: agent.token, body: { name: "Mine" } });
    await expectStatus(200, "GET", "/v1/teams", { token: agent.token });
    await expectStatus(403, "GET", "/v1/teams", { token: reportsOnly });
    const teamPath = `/v1/teams/${team.body.id}`;
    await expectStatus(200, "GET", teamPath, { token: agent.token });
    await expectStatus(404, "GET", `/v1/teams/${unknownTeam}`, { token: agent.token });
    await expectStatus(200, "PATCH", teamPath, { token: adminToken, body: { name: "Sales EU" } });
    const spare = await expectStatus(201, "POST", "/v1/teams", { token: adminToken, body: { name: "Spare" } });
    await expectStatus(409, "PATCH", `/v1/teams/${spare.body.id}`, { token: adminToken, body: { name: "sales eu" } });
    await expectStatus(204, "DELETE", `/v1/teams/${spare.body.id}`, { token: adminToken });

    await expectStatus(200, "GET", "/v1/config/assignment", { token: agent.token });
    await expectStatus(200, "GET", `/v1/config/assignment?team_id=${team.body.id}`, { token: agent.token });
    await expectStatus(400, "GET", `/v1/config/assignment?team_id=${unknownTeam}`, { token: agent.token });
    await expectStatus(403, "PUT", "/v1/config/assignment", { token: agent.token, body: { mode: "round_robin" } });
    await expectStatus(400, "PUT", "/v1/config/assignment", { token: adminToken, body: { mode: "round_robin", team_id: unknownTeam } });
    await expectStatus(200, "PUT", "/v1/config/assignment", { token: adminToken, body: { mode: "round_robin", capacity: 5 } });

    const sla = await expectStatus(201, "POST", "/v1/sla-policies", { token: adminToken, body: { name: "Urgent", first_response_s: 900, default: true } });
    await expectStatus(409, "POST", "/v1/sla-policies", { token: adminToken, body: { name: "urgent", resolution_s: 3600 } });
    await expectStatus(400, "POST", "/v1/sla-policies", { token: adminToken, body: { name: "Empty" } });
    await expectStatus(403, "POST", "/v1/sla-policies", { token: agent.token, body: { name: "Mine", resolution_s: 3600 } });
    await expectStatus(200, "GET", "/v1/sla-policies", { token: agent.token });
    const slaPath = `/v1/sla-policies/${sla.body.id}`;
    await expectStatus(200, "GET", slaPath, { token: agent.token });
    await expectStatus(404, "GET", "/v1/sla-policies/sla_01jd2x8k3f0m6q1v9w4r7t5y2z", { token: agent.token });
    await expectStatus(200, "PATCH", slaPath, { token: adminToken, body: { resolution_s: 86_400 } });
    const spareSla = await expectStatus(201, "POST", "/v1/sla-policies", { token: adminToken, body: { name: "Spare", resolution_s: 3600 } });
    await expectStatus(409, "PATCH", `/v1/sla-policies/${spareSla.body.id}`, { token: adminToken, body: { name: "URGENT" } });

    // A customer writes: the default policy applies and round robin assigns the only online agent.
    const { conversation_id: id } = await simulateCustomer(adminToken, { from: nextPhone(), type: "text", text: "Price?" });
    const patched = await expectStatus(200, "PATCH", `/v1/conversations/${id}`, { token: agent.token, body: { priority: "urgent", team_id: team.body.id } });
    expect(patched.body).toMatchObject({ priority: "urgent", team_id: team.body.id, assigned_to: agent.user.id, sla: { policy_id: sla.body.id, kind: "first_response", status: "ok" } });
    await expectStatus(400, "PATCH", `/v1/conversations/${id}`, { token: agent.token, body: { team_id: unknownTeam } });
    await expectStatus(403, "PATCH", `/v1/conversations/${id}`, { token: reportsOnly, body: { priority: "low" } });
    await expectStatus(404, "PATCH", "/v1/conversations/conv_01jd2x8k3f0m6q1v9w4r7t5y2z", { token: agent.token, body: { priority: "low" } });
    await expectStatus(200, "GET", `/v1/conversations?sort=priority&team=${team.body.id}&priority=urgent`, { token: agent.token });
    await expectStatus(400, "PUT", `/v1/conversations/${id}/sla`, { token: agent.token, body: { sla_policy_id: "sla_01jd2x8k3f0m6q1v9w4r7t5y2z" } });
    await expectStatus(200, "PUT", `/v1/conversations/${id}/sla`, { token: agent.token, body: { sla_policy_id: spareSla.body.id } });
    await expectStatus(200, "PUT", `/v1/conversations/${id}/sla`, { token: agent.token, body: { sla_policy_id: sla.body.id } });
    // Nobody answers: the clock warns and breaches (sla.warning, sla.breached).
    await drain(13 * 60_000);
    await drain(20 * 60_000);
    expect((await expectStatus(200, "GET", `/v1/conversations/${id}`, { token: agent.token })).body.sla.status).toBe("breached");
    const attainment = await expectStatus(200, "GET", `/v1/reports/sla?to=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`, { token: adminToken });
    expect(attainment.body.policies).toEqual([expect.objectContaining({ policy_id: sla.body.id, breached: 1 })]);
    await expectStatus(400, "GET", "/v1/reports/sla?from=yesterday", { token: adminToken });
    await expectStatus(204, "DELETE", `/v1/sla-policies/${spareSla.body.id}`, { token: adminToken });
    await expectStatus(204, "DELETE", teamPath, { token: adminToken });
  });

  it("answers 405 with the error body for an undocumented method", async () => {
    const res = await request("PUT", "/v1/account");
    expect(res.status).toBe(405);
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });
});

describe("push subscriptions", () => {
  it("subscribe and unsubscribe a browser answer as documented", async () => {
    const { adminToken } = await createTestAccount();
    const restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
    try {
      const endpoint = "http://127.0.0.1:9/push/contract";
      const keys = { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString("base64url"), auth: Buffer.alloc(16, 1).toString("base64url") };
      await expectStatus(201, "POST", "/v1/push/subscriptions", { token: adminToken, body: { endpoint, expirationTime: null, keys } });
      await expectStatus(400, "POST", "/v1/push/subscriptions", { token: adminToken, body: { endpoint } });
      await expectStatus(204, "DELETE", "/v1/push/subscriptions", { token: adminToken, body: { endpoint } });
      await expectStatus(404, "DELETE", "/v1/push/subscriptions", { token: adminToken, body: { endpoint } });
    } finally {
      restoreEnv();
    }
  });
});

describe("recorded events", () => {
  // Runs after the scenarios above, which recorded every kind of event through the real verbs.
  it("each matches the documented webhook body of its type", async () => {
    const rows = await getDb().select().from(events);
    const problems = rows.flatMap((row) => {
      const envelope = { id: row.id, type: row.type, created_at: row.createdAt.toISOString(), data: row.data };
      // The New Plant webhook delivers the plant itself.
      return v1.checkWebhook(row.type, row.type === "plant.created" ? row.data : envelope);
    });
    expect(problems).toEqual([]);
    const seen = new Set(rows.map((row) => row.type));
    expect(eventTypes.filter((type) => !seen.has(type))).toEqual([]);
  });
});

describe("every route file is documented", () => {
  const probe = (template: string) => template.replace(/\{[^}]+\}/g, "contract_probe");

  /**
   * The operations a route file really serves: each exported method that does not answer
   * 405 to an unauthenticated probe (route files export every method, most as 405).
   * Each probe's answer is itself checked against the document.
   */
  async function implementedOperations(base: "v1" | "plant-store", contract: () => Contract, except: string[] = []) {
    const found: string[] = [];
    const problems: string[] = [];
    // Hundreds of anonymous probes from one address: a fresh budget, so none is answered 429 instead of 405.
    await resetRateLimiters();
    for (const route of routeTable(base).filter((r) => !r.catchAll && !except.includes(r.template))) {
      const mod = await route.load();
      for (const method of ROUTE_METHODS) {
        const handler = mod[method];
        if (!handler) continue;
        const path = probe(route.template);
        const res = await request(method, path);
        if (res.status === 405) {
          await res.body?.cancel();
          continue;
        }
        found.push(`${method} ${route.template}`);
        const checked = await contract().check(method, path, res);
        problems.push(...checked.problems.map((p) => `${route.file}: ${p}`));
      }
    }
    return { found, problems };
  }

  it("rich templates, the price table, estimates and monthly spend answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const rich = {
      name: "spring_offer",
      language: "en_US",
      category: "MARKETING",
      components: {
        header: { format: "IMAGE", media: { mime_type: "image/jpeg", data: JPEG.toString("base64"), filename: "spring.jpg" } },
        body: { text: "Hi {{1}}, spring is here.", examples: ["Ana"] },
        footer: { text: "Plant shop" },
        buttons: [
          { type: "URL", text: "Shop", url: "https://shop.example/o/{{1}}", example: "a1" },
          { type: "PHONE_NUMBER", text: "Call", phone_number: "+34911234567" },
          { type: "COPY_CODE", example: "SPRING" },
        ],
      },
    };
    const created = await expectStatus(201, "POST", "/v1/templates", { token: adminToken, body: rich });
    expect(created.body.components.header).toMatchObject({ format: "IMAGE", media: { mime_type: "image/jpeg" } });
    await expectStatus(400, "POST", "/v1/templates", { token: adminToken, body: { ...rich, name: "bad_button", components: { body: { text: "x" }, buttons: [{ type: "FLOW", text: "Go" }] } } });
    await expectStatus(200, "GET", `/v1/templates/${created.body.id}`, { token: adminToken });
    await drain(2_500);
    const sent = await expectStatus(201, "POST", "/v1/messages", { token: adminToken, body: { to: "34911234567", type: "template", template: { name: "spring_offer", language: "en_US", variables: ["Ana"], buttons: [{ index: 0, value: "b2" }] } } });
    expect(sent.body.template).toMatchObject({ header: { format: "IMAGE" }, buttons: [{ type: "URL", url: "https://shop.example/o/b2" }, { type: "PHONE_NUMBER" }, { type: "COPY_CODE", value: "SPRING" }] });
    await expectStatus(200, "GET", `/v1/messages/${sent.body.id}`, { token: adminToken });

    await expectStatus(200, "GET", "/v1/config/pricing", { token: agent.token });
    await expectStatus(200, "PUT", "/v1/config/pricing", { token: adminToken, body: { currency: "EUR", csv: "country_code,category,price\n34,marketing,0.06" } });
    await expectStatus(400, "PUT", "/v1/config/pricing", { token: adminToken, body: { currency: "EUR", csv: "country_code,category,price\n34,gifts,0.06" } });
    await expectStatus(403, "PUT", "/v1/config/pricing", { token: agent.token, body: { currency: "EUR", csv: "country_code,category,price\n34,marketing,0.06" } });
    const estimate = await expectStatus(200, "GET", "/v1/config/pricing/estimate?to=34911234567&category=marketing", { token: agent.token });
    expect(estimate.body.label).toBe("Marketing · ≈ 0.06 EUR");
    await expectStatus(400, "GET", "/v1/config/pricing/estimate?to=34&category=marketing", { token: agent.token });
    await expectStatus(200, "GET", `/v1/reports/spend?from=${days(-40)}&to=${days(1)}`, { token: adminToken });
    await expectStatus(400, "GET", "/v1/reports/spend?from=yesterday", { token: adminToken });
  });

  it("campaigns, their settings, contact labels and contact import answer as documented", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    await expectStatus(201, "POST", "/v1/templates", { token: adminToken, body: { name: "spring_catalogue", language: "en_US", category: "MARKETING", components: { body: { text: "Hi {{1}}, spring is here.", examples: ["Ana"] } } } });
    await drain(2_500);
    await expectStatus(200, "GET", "/v1/config/campaigns", { token: agent.token });
    // One a second: the campaign below is still sending when it is paused.
    await expectStatus(200, "PUT", "/v1/config/campaigns", { token: adminToken, body: { messages_per_second: 1 } });
    await expectStatus(400, "PUT", "/v1/config/campaigns", { token: adminToken, body: { messages_per_second: 0 } });
    const csv = "phone,name,city\n+34 611 00 09 01,Ana,Madrid\nnot a phone,Bea,Sevilla\n+34 611 00 09 02,Carla,Madrid\n+34 611 00 09 03,Dora,Madrid\n+34 611 00 09 04,Eva,Madrid\n+34 611 00 09 05,Flor,Madrid\n";
    const preview = await expectStatus(200, "POST", "/v1/contacts/import", { token: adminToken, body: { csv, preview: true, marketing_opt_in: true } });
    expect(preview.body.errors).toHaveLength(1);
    await expectStatus(200, "POST", "/v1/contacts/import", { token: agent.token, body: { csv, marketing_opt_in: true } });
    await expectStatus(400, "POST", "/v1/contacts/import", { token: adminToken, body: { csv: "name\nAna" } });
    const contacts = await expectStatus(200, "GET", "/v1/contacts?q=ana", { token: adminToken });
    const contactId = contacts.body.data[0].id as string;
    const label = await expectStatus(201, "POST", "/v1/labels", { token: adminToken, body: { name: "Spring", color: "#16a34a" } });
    await expectStatus(200, "PUT", `/v1/contacts/${contactId}/labels`, { token: agent.token, body: { label_ids: [label.body.id] } });
    await expectStatus(400, "PUT", `/v1/contacts/${contactId}/labels`, { token: agent.token, body: { label_ids: ["lbl_01jd2x8k3f0m6q1v9w4r7t5y2z"] } });
    const body = { name: "Spring", template: { name: "spring_catalogue", language: "en_US", variables: [{ source: "contact.name" }] }, audience: { attributes: { city: "Madrid" } } };
    await expectStatus(200, "POST", "/v1/campaigns/audience-preview", { token: adminToken, body: { audience: body.audience, template: { name: "spring_catalogue", language: "en_US" } } });
    await expectStatus(403, "POST", "/v1/campaigns", { token: agent.token, body });
    await expectStatus(400, "POST", "/v1/campaigns", { token: adminToken, body: { ...body, audience: { label_ids: ["lbl_01jd2x8k3f0m6q1v9w4r7t5y2z"] } } });
    const created = await expectStatus(201, "POST", "/v1/campaigns", { token: adminToken, body });
    const id = created.body.id as string;
    await expectStatus(200, "GET", "/v1/campaigns", { token: agent.token });
    await expectStatus(200, "GET", `/v1/campaigns/${id}`, { token: adminToken });
    await expectStatus(404, "GET", "/v1/campaigns/cmp_01jd2x8k3f0m6q1v9w4r7t5y2z", { token: adminToken });
    await expectStatus(200, "PATCH", `/v1/campaigns/${id}`, { token: adminToken, body: { name: "Spring 2" } });
    await expectStatus(409, "POST", `/v1/campaigns/${id}/pause`, { token: adminToken });
    await expectStatus(200, "POST", `/v1/campaigns/${id}/schedule`, { token: adminToken, body: { send_at: days(1) } });
    await expectStatus(200, "POST", `/v1/campaigns/${id}/schedule`, { token: adminToken });
    // Its first second: one recipient, then it waits for the next second (one second per run of the job here).
    setDispatchRunMs(0);
    setCampaignWarmUpMs(0);
    await drain().finally(() => setDispatchRunMs(15_000));
    await expectStatus(200, "GET", `/v1/campaigns/${id}/recipients?status=sent`, { token: adminToken });
    await expectStatus(400, "GET", `/v1/campaigns/${id}/recipients?status=lost`, { token: adminToken });
    expect((await expectStatus(200, "GET", `/v1/campaigns/${id}`, { token: adminToken })).body.status).toBe("sending");
    await expectStatus(200, "POST", `/v1/campaigns/${id}/pause`, { token: adminToken });
    await expectStatus(409, "POST", `/v1/campaigns/${id}/pause`, { token: adminToken });
    await expectStatus(200, "POST", `/v1/campaigns/${id}/resume`, { token: adminToken });
    await expectStatus(409, "DELETE", `/v1/campaigns/${id}`, { token: adminToken });
    const other = await expectStatus(201, "POST", "/v1/campaigns", { token: adminToken, body });
    await expectStatus(200, "POST", `/v1/campaigns/${other.body.id}/cancel`, { token: adminToken });
    await expectStatus(409, "POST", `/v1/campaigns/${other.body.id}/cancel`, { token: adminToken });
    await expectStatus(409, "PATCH", `/v1/campaigns/${other.body.id}`, { token: adminToken, body: { name: "Late" } });
    await expectStatus(204, "DELETE", `/v1/campaigns/${other.body.id}`, { token: adminToken });
  });

  it("every /v1 operation served by app/v1 is in the /v1 document, and answers an anonymous call as documented", async () => {
    const { found, problems } = await implementedOperations("v1", () => v1);
    const documented = new Set(v1.operations());
    const undocumented = found.filter((op) => !documented.has(op));
    expect(undocumented, "route files serving operations missing from lib/openapi/v1-paths").toEqual([]);
    expect(problems).toEqual([]);
    expect(found).toEqual(expect.arrayContaining(["POST /v1/auth/login", "GET /v1/users/{id}", "GET /v1/openapi.json"]));
  });

  it("every plant store operation served by app/plant-store is in its document", async () => {
    // The document does not describe itself.
    const { found, problems } = await implementedOperations("plant-store", () => plants, ["/plant-store/openapi.json"]);
    const documented = new Set(plants.operations());
    expect(found.filter((op) => !documented.has(op))).toEqual([]);
    expect(found.sort()).toEqual([...documented].sort());
    expect(problems).toEqual([]);
  });

  it("every /v1 operation served by app/v1 had its success answer checked by a scenario above", async () => {
    const { found } = await implementedOperations("v1", () => v1);
    const unchecked = found.filter((op) => {
      const [method, template] = op.split(" ");
      const responses = v1.doc.paths[template]?.[method.toLowerCase()]?.responses ?? {};
      const success = Object.keys(responses).filter((s) => s.startsWith("2"));
      return !success.some((status) => v1.checked.has(`${op} ${status}`));
    });
    expect(unchecked, "add a scenario that checks each operation's success answer").toEqual([]);
  });
});
