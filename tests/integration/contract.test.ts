import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetRateLimiters } from "@/lib/api/rate-limit";
import { createApiToken } from "@/lib/auth/api-tokens";
import { authenticateBearer } from "@/lib/auth/tokens";
import { resetEnvCache } from "@/lib/env";
import { Contract, type OpenApiDocument } from "@/tests/support/contract";
import { addTestUser, createTestAccount, TEST_PASSWORD } from "@/tests/support/fixtures";
import { createDispatchFetch, ROUTE_METHODS, routeTable } from "@/tests/support/route-table";

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
    const json = (body: unknown, status = 200, headers: Record<string, string> = { "x-request-id": "req_1" }) =>
      Response.json(body, { status, headers });
    const account = { id: "acc_1", name: "A", phone_number: null, number_status: "sandbox", coexistence: false, created_at: "2026-11-22T10:15:30.123Z", users: { total: 1, admins: 1, agents: 0 } };
    expect((await v1.check("GET", "/v1/account", json(account))).problems).toEqual([]);
    const problems = async (res: Response, method = "GET", path = "/v1/account") => (await v1.check(method, path, res)).problems;
    expect(await problems(json({ ...account, secret: "leak" }))).toEqual([expect.stringMatching(/additional properties/)]);
    expect(await problems(json({ ...account, users: { total: "1", admins: 1, agents: 0 } }))).toEqual([expect.stringMatching(/must be integer/)]);
    expect(await problems(json(account, 418))).toEqual([expect.stringMatching(/status not documented/)]);
    expect(await problems(json(account, 200, {}))).toEqual([expect.stringMatching(/missing required header X-Request-Id/)]);
    expect(await problems(new Response("ok", { headers: { "x-request-id": "r", "content-type": "text/plain" } }))).toEqual([
      expect.stringMatching(/content type "text\/plain" not documented/),
    ]);
    expect(await problems(json({ error: { code: "x" }, request_id: "r" }, 404), "GET", "/v1/users/usr_1")).toEqual([
      expect.stringMatching(/must have required property 'message'/),
    ]);
    expect(await problems(json({}), "GET", "/v1/nothing")).toEqual([expect.stringMatching(/path not documented/)]);
    const plantProblems = (await plants.check("POST", "/plant-store/plants", json({ id: "7", name: "Fern" }))).problems;
    expect(plantProblems).toEqual([expect.stringMatching(/must be integer/)]);
    expect((await plants.check("DELETE", "/plant-store/plants/1", new Response(null, { status: 204 }))).problems).toEqual([]);
    expect((await plants.check("DELETE", "/plant-store/plants/1", json({ error: 400 }, 400))).problems).toEqual([
      expect.stringMatching(/required property 'message'/),
    ]);
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

    const refreshedId = (await authenticateBearer(refreshed.body.token)).token.id;
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
    await expectStatus(400, "GET", "/v1/events/stream", { token: adminToken, headers: { "last-event-id": "nope" } });

    await withRateLimit(1, async () => {
      await expectStatus(200, "GET", "/v1/account", { token: adminToken });
      const limited = await expectStatus(429, "GET", "/v1/account", { token: adminToken });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      await expectStatus(429, "GET", "/v1/health", { token: adminToken });
      await expectStatus(429, "GET", "/v1/users", { token: adminToken });
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
    const readOnly = await createApiToken({ ctx: await authenticateBearer(adminToken), input: { name: "ro", permissions: ["reports:read"], expires_at: new Date(days(3)) } });
    await expectStatus(403, "GET", "/v1/users", { token: readOnly.token });

    await expectStatus(200, "GET", `/v1/users/${created.body.id}`, { token: adminToken });
    await expectStatus(404, "GET", "/v1/users/usr_unknown", { token: adminToken });
    await expectStatus(200, "PATCH", `/v1/users/${created.body.id}`, { token: adminToken, body: { name: "Nina B." } });
    await expectStatus(400, "PATCH", `/v1/users/${created.body.id}`, { token: adminToken, body: {} });
    await expectStatus(409, "PATCH", `/v1/users/${admin.id}`, { token: adminToken, body: { role: "agent" } });
    await expectStatus(409, "DELETE", `/v1/users/${admin.id}`, { token: adminToken });
    await expectStatus(403, "DELETE", `/v1/users/${created.body.id}`, { token: agent.token });
    await expectStatus(204, "DELETE", `/v1/users/${created.body.id}`, { token: adminToken });
    await expectStatus(404, "DELETE", `/v1/users/${created.body.id}`, { token: adminToken });
  });

  it("answers 405 with the error body for an undocumented method", async () => {
    const res = await request("PUT", "/v1/account");
    expect(res.status).toBe(405);
    expect((await res.json()).error.code).toBe("method_not_allowed");
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
