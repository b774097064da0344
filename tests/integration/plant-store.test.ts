import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as plantById from "@/app/plant-store/plants/[id]/route";
import * as plantsRoute from "@/app/plant-store/plants/route";
import * as catchAll from "@/app/plant-store/[[...path]]/route";
import { getDb } from "@/db";
import { events, plants, webhookDeliveries, webhooks } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { createApiToken } from "@/lib/auth/api-tokens";
import { resetEnvCache } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { PLANT_LIST_CAP } from "@/lib/plants/schemas";
import { call } from "@/tests/support/api";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";

const createPlant = (token: string | undefined, body: unknown) =>
  call(plantsRoute.POST, { method: "POST", path: "/plant-store/plants", token, body });
const listPlants = (token: string | undefined, query = "") => call(plantsRoute.GET, { path: `/plant-store/plants${query}`, token });
const deletePlant = (token: string | undefined, id: string) =>
  call(plantById.DELETE, { method: "DELETE", path: `/plant-store/plants/${encodeURIComponent(id)}`, token, params: { id } });

/** Every failure of the plant store answers the Error schema with error = status. */
function expectError(res: { status: number; body: any }, status: number, message?: RegExp) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: status, message: expect.any(String) });
  if (message) expect(res.body.message).toMatch(message);
}

describe("plant store", () => {
  it("creates a plant and answers 200 with the NewPlant, id as a JSON number", async () => {
    const { adminToken } = await createTestAccount();
    const res = await createPlant(adminToken, { name: "Monstera deliciosa", tag: "tropical" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), name: "Monstera deliciosa", tag: "tropical" });
    expect(res.text).toMatch(/"id":\d+/);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("stores a plant without a tag and answers it without a tag field", async () => {
    const { adminToken } = await createTestAccount();
    const res = await createPlant(adminToken, { name: "  Fern  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), name: "Fern" });
  });

  it("ignores unknown fields, including an id sent by the client", async () => {
    const { adminToken } = await createTestAccount();
    const res = await createPlant(adminToken, { name: "Cactus", colour: "green", id: 999999, nested: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), name: "Cactus" });
    expect(res.body.id).not.toBe(999999);
  });

  it("accepts a name of exactly 200 characters and a tag of 100", async () => {
    const { adminToken } = await createTestAccount();
    const res = await createPlant(adminToken, { name: "n".repeat(200), tag: "t".repeat(100) });
    expect(res.status).toBe(200);
  });

  it.each([
    ["name missing", { tag: "x" }, /name is required/],
    ["name empty", { name: "" }, /name is required/],
    ["name blank", { name: "   " }, /name is required/],
    ["name a number", { name: 42 }, /name must be a string/],
    ["name null", { name: null }, /name must be a string/],
    ["name an array", { name: ["Fern"] }, /name must be a string/],
    ["name too long", { name: "n".repeat(201) }, /at most 200/],
    ["tag a number", { name: "Fern", tag: 7 }, /tag must be a string/],
    ["tag null", { name: "Fern", tag: null }, /tag must be a string/],
    ["tag an object", { name: "Fern", tag: { a: 1 } }, /tag must be a string/],
    ["tag too long", { name: "Fern", tag: "t".repeat(101) }, /at most 100/],
    ["body an array", [{ name: "Fern" }], /JSON object/],
    ["body a string", "Fern", /JSON object/],
    ["body null", null, /JSON object/],
  ])("answers 400 Error for %s and stores nothing", async (_case, body, message) => {
    const { account, adminToken } = await createTestAccount();
    const res = await createPlant(adminToken, body);
    expectError(res, 400, message);
    const stored = await getDb().select().from(plants).where(eq(plants.accountId, account.id));
    expect(stored).toHaveLength(0);
  });

  it("answers 400 Error for a body that is not JSON, 415 for one not sent as JSON", async () => {
    const { adminToken } = await createTestAccount();
    const broken = await call(plantsRoute.POST, {
      method: "POST",
      path: "/plant-store/plants",
      token: adminToken,
      rawBody: "{name:",
      headers: { "content-type": "application/json" },
    });
    expectError(broken, 400, /not valid JSON/);
    const form = await call(plantsRoute.POST, {
      method: "POST",
      path: "/plant-store/plants",
      token: adminToken,
      rawBody: "name=Fern",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectError(form, 415, /Content-Type: application\/json/);
  });

  it("answers 413 Error for a body over 64 KiB", async () => {
    const { adminToken } = await createTestAccount();
    const res = await createPlant(adminToken, { name: "Fern", padding: "x".repeat(70 * 1024) });
    expectError(res, 413);
  });

  it("lists the account's plants oldest first, honouring limit", async () => {
    const { adminToken } = await createTestAccount();
    const names = ["Aloe", "Basil", "Cactus", "Dahlia"];
    const ids: number[] = [];
    for (const name of names) ids.push((await createPlant(adminToken, { name })).body.id);
    const all = await listPlants(adminToken);
    expect(all.status).toBe(200);
    expect(all.body.map((p: { name: string }) => p.name)).toEqual(names);
    expect(all.body.map((p: { id: number }) => p.id)).toEqual(ids);
    const two = await listPlants(adminToken, "?limit=2");
    expect(two.body.map((p: { name: string }) => p.name)).toEqual(["Aloe", "Basil"]);
    const many = await listPlants(adminToken, "?limit=2147483647");
    expect(many.body).toHaveLength(4);
  });

  it("never lists more than the cap, with or without limit", async () => {
    const { account, adminToken } = await createTestAccount();
    await getDb()
      .insert(plants)
      .values(Array.from({ length: PLANT_LIST_CAP + 5 }, (_, i) => ({ accountId: account.id, name: `Plant ${i}` })));
    const unlimited = await listPlants(adminToken);
    expect(unlimited.body).toHaveLength(PLANT_LIST_CAP);
    expect(unlimited.body[0].name).toBe("Plant 0");
    const large = await listPlants(adminToken, `?limit=${PLANT_LIST_CAP + 3}`);
    expect(large.body).toHaveLength(PLANT_LIST_CAP);
  });

  it.each(["0", "-1", "abc", "1.5", "", "1e2", "+3", "2147483648", "99999999999999999999999"])(
    "answers 400 Error for limit=%j",
    async (limit) => {
      const { adminToken } = await createTestAccount();
      const res = await listPlants(adminToken, `?limit=${encodeURIComponent(limit)}`);
      expectError(res, 400, /limit must be an integer from 1 to 2147483647/);
    },
  );

  it("deletes a plant with 204 and no body; it is gone afterwards", async () => {
    const { adminToken } = await createTestAccount();
    const { body: plant } = await createPlant(adminToken, { name: "Fern" });
    const res = await deletePlant(adminToken, String(plant.id));
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await listPlants(adminToken)).body).toEqual([]);
    expectError(await deletePlant(adminToken, String(plant.id)), 404, /not found/);
  });

  it("answers 404 Error for an unknown id and for another account's plant, which stays", async () => {
    const mine = await createTestAccount();
    const theirs = await createTestAccount();
    const { body: plant } = await createPlant(theirs.adminToken, { name: "Orchid" });
    expectError(await deletePlant(mine.adminToken, String(plant.id)), 404);
    expectError(await deletePlant(mine.adminToken, "9223372036854775807"), 404);
    expect((await listPlants(mine.adminToken)).body).toEqual([]);
    expect((await listPlants(theirs.adminToken)).body).toEqual([plant]);
  });

  it.each(["abc", "1.5", "-1", "0", "1e3", " 1", "0x10", "9223372036854775808", "99999999999999999999999999"])(
    "answers 400 Error for the id %j",
    async (id) => {
      const { adminToken } = await createTestAccount();
      expectError(await deletePlant(adminToken, id), 400, /id must be an integer from 1 to 9223372036854775807/);
    },
  );

  it("keeps each account's plants apart", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    await createPlant(a.adminToken, { name: "Aloe" });
    await createPlant(b.adminToken, { name: "Basil" });
    expect((await listPlants(a.adminToken)).body.map((p: { name: string }) => p.name)).toEqual(["Aloe"]);
    expect((await listPlants(b.adminToken)).body.map((p: { name: string }) => p.name)).toEqual(["Basil"]);
  });

  it("accepts any valid token of the account: an agent's session and an api token without scopes for it", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    expect((await createPlant(agent.token, { name: "Ivy" })).status).toBe(200);
    const ctx = await bearerContext(adminToken);
    const api = await createApiToken({
      ctx,
      input: { name: "reports only", permissions: ["reports:read"], expires_at: new Date(Date.now() + 7 * 86_400_000) },
    });
    const listed = await listPlants(api.token);
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: { name: string }) => p.name)).toEqual(["Ivy"]);
  });

  it.each([
    ["no token", undefined, undefined],
    ["a malformed header", undefined, "Token abc"],
    ["a token with a bad signature", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl", undefined],
  ])("answers 401 Error with WWW-Authenticate for %s", async (_case, token, header) => {
    const headers = header ? { authorization: header } : undefined;
    for (const res of [
      await call(plantsRoute.GET, { path: "/plant-store/plants", token, headers }),
      await call(plantsRoute.POST, { method: "POST", path: "/plant-store/plants", token, headers, body: { name: "Fern" } }),
      await call(plantById.DELETE, { method: "DELETE", path: "/plant-store/plants/1", token, headers, params: { id: "1" } }),
    ]) {
      expectError(res, 401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("answers 401 before validating input", async () => {
    expectError(await deletePlant(undefined, "abc"), 401);
    expectError(await listPlants(undefined, "?limit=0"), 401);
  });

  it("answers 401 for a revoked token", async () => {
    const { adminToken } = await createTestAccount();
    const ctx = await bearerContext(adminToken);
    const api = await createApiToken({ ctx, input: { name: "t", permissions: ["users:read"], expires_at: new Date(Date.now() + 7 * 86_400_000) } });
    expect((await listPlants(api.token)).status).toBe(200);
    const { revokeApiToken } = await import("@/lib/auth/api-tokens");
    await revokeApiToken({ ctx, id: (await bearerContext(api.token)).token.id });
    expectError(await listPlants(api.token), 401, /revoked/);
  });

  it("answers 405 Error with Allow for other methods", async () => {
    const { adminToken } = await createTestAccount();
    const put = await call(plantsRoute.PUT, { method: "PUT", path: "/plant-store/plants", token: adminToken, body: { name: "x" } });
    expectError(put, 405);
    expect(put.headers.get("allow")).toBe("GET, POST, HEAD");
    const get = await call(plantById.GET, { path: "/plant-store/plants/1", token: adminToken, params: { id: "1" } });
    expectError(get, 405);
    expect(get.headers.get("allow")).toBe("DELETE");
  });

  it("answers 404 Error for an unknown plant store path", async () => {
    expectError(await call(catchAll.GET, { path: "/plant-store/pets" }), 404);
  });

  describe("rate limit", () => {
    afterEach(() => {
      delete process.env.RATE_LIMIT_PER_MINUTE;
      resetEnvCache();
      resetRateLimiters();
    });

    it("answers 429 Error with Retry-After once the token's budget is spent", async () => {
      const { adminToken } = await createTestAccount();
      process.env.RATE_LIMIT_PER_MINUTE = "2";
      resetEnvCache();
      resetRateLimiters();
      expect((await listPlants(adminToken)).headers.get("ratelimit-limit")).toBe("2");
      await listPlants(adminToken);
      const limited = await listPlants(adminToken);
      expectError(limited, 429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  describe("New Plant webhook", () => {
    async function addWebhook(accountId: string, events: string[], status: "active" | "disabled" = "active") {
      const now = new Date();
      const id = newId("webhook", now);
      await getDb().insert(webhooks).values({
        id,
        accountId,
        url: "https://hooks.example.com/plants",
        events,
        secret: "whsec_test_secret_0123456789abcdef",
        status,
        createdAt: now,
        updatedAt: now,
      });
      return id;
    }

    it("writes, with the plant, a pending delivery whose body is exactly the NewPlant JSON", async () => {
      const { account, adminToken } = await createTestAccount();
      const subscribed = await addWebhook(account.id, ["plant.created"]);
      const everything = await addWebhook(account.id, ["*"]);
      const other = await addWebhook(account.id, ["message.received"]);
      const disabled = await addWebhook(account.id, ["plant.created"], "disabled");

      const res = await createPlant(adminToken, { name: "Monstera", tag: "tropical", ignored: true });
      expect(res.status).toBe(200);

      const deliveries = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, account.id));
      expect(deliveries.map((d) => d.webhookId).sort()).toEqual([subscribed, everything].sort());
      for (const delivery of deliveries) {
        expect(delivery.payload).toBe(res.text);
        expect(JSON.parse(delivery.payload)).toEqual({ id: res.body.id, name: "Monstera", tag: "tropical" });
        expect(delivery.eventType).toBe("plant.created");
        expect(delivery.status).toBe("pending");
      }
      expect(deliveries.some((d) => d.webhookId === other || d.webhookId === disabled)).toBe(false);

      const [event] = await getDb().select().from(events).where(and(eq(events.accountId, account.id), eq(events.type, "plant.created")));
      expect(event.data).toEqual(res.body);
      expect(deliveries[0].eventId).toBe(event.id);
      // Each delivery is due now, as its own job.
      for (const delivery of deliveries) expect(delivery).toMatchObject({ nextAttemptAt: event.createdAt, lockedUntil: null, claims: 0 });
    });

    it("writes neither plant nor event nor delivery for a refused plant", async () => {
      const { account, adminToken } = await createTestAccount();
      await addWebhook(account.id, ["plant.created"]);
      expect((await createPlant(adminToken, { name: "" })).status).toBe(400);
      expect(await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, account.id))).toHaveLength(0);
      expect(await getDb().select().from(events).where(eq(events.accountId, account.id))).toHaveLength(0);
    });

    it("does not deliver another account's plants", async () => {
      const a = await createTestAccount();
      const b = await createTestAccount();
      await addWebhook(a.account.id, ["plant.created"]);
      await createPlant(b.adminToken, { name: "Basil" });
      expect(await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, a.account.id))).toHaveLength(0);
    });
  });
});
