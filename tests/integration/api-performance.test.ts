import { afterEach, describe, expect, it, vi } from "vitest";
import * as openapi from "@/app/v1/openapi.json/route";
import * as tokenById from "@/app/v1/auth/tokens/[id]/route";
import * as tokens from "@/app/v1/auth/tokens/route";
import * as verify from "@/app/v1/auth/verify/route";
import * as userById from "@/app/v1/users/[id]/route";
import * as plantDocument from "@/app/plant-store/openapi.json/route";
import { getDb } from "@/db";
import { call } from "@/tests/support/api";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

afterEach(() => vi.restoreAllMocks());

describe("authentication costs little and still sees every change at once", () => {
  it("verifies a token again without reading the database", async () => {
    const { adminToken } = await createTestAccount();
    expect((await call(verify.GET, { path: "/v1/auth/verify", token: adminToken })).status).toBe(200);
    const select = vi.spyOn(getDb(), "select");
    const again = await call(verify.GET, { path: "/v1/auth/verify", token: adminToken });
    expect(again.status).toBe(200);
    expect(select).not.toHaveBeenCalled();
  });

  it("refuses a revoked api token on the very next request", async () => {
    const { adminToken } = await createTestAccount();
    const created = await call(tokens.POST, { method: "POST", path: "/v1/auth/tokens", token: adminToken, body: { name: "ci", permissions: ["users:read"], expires_at: inDays(5) } });
    expect(created.status).toBe(201);
    const apiToken = created.body.token as string;
    expect((await call(verify.GET, { path: "/v1/auth/verify", token: apiToken })).status).toBe(200);
    const revoked = await call(tokenById.DELETE, { method: "DELETE", path: `/v1/auth/tokens/${created.body.id}`, token: adminToken, params: { id: created.body.id } });
    expect(revoked.status).toBe(204);
    const after = await call(verify.GET, { path: "/v1/auth/verify", token: apiToken });
    expect(after.status).toBe(401);
  });

  it("sees a demotion and a deletion on the very next request", async () => {
    const { account, adminToken } = await createTestAccount();
    const other = await addTestUser(account.id, "admin");
    const before = await call(verify.GET, { path: "/v1/auth/verify", token: other.token });
    expect(before.body.permissions).toContain("users:delete");
    const demoted = await call(userById.PATCH, { method: "PATCH", path: `/v1/users/${other.user.id}`, token: adminToken, params: { id: other.user.id }, body: { role: "agent" } });
    expect(demoted.status).toBe(200);
    const seen = await call(verify.GET, { path: "/v1/auth/verify", token: other.token });
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).not.toContain("users:delete");
    const deleted = await call(userById.DELETE, { method: "DELETE", path: `/v1/users/${other.user.id}`, token: adminToken, params: { id: other.user.id } });
    expect(deleted.status).toBe(204);
    expect((await call(verify.GET, { path: "/v1/auth/verify", token: other.token })).status).toBe(401);
  });
});

describe("the OpenAPI documents", () => {
  for (const [name, route, path] of [
    ["/v1", openapi, "/v1/openapi.json"],
    ["plant store", plantDocument, "/plant-store/openapi.json"],
  ] as const) {
    it(`${name}: served with an ETag, 304 on If-None-Match`, async () => {
      const first = await call(route.GET, { path });
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag");
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.body.openapi).toMatch(/^3\./);
      const second = await call(route.GET, { path, headers: { "If-None-Match": etag! } });
      expect(second.status).toBe(304);
      expect(second.text).toBe("");
      expect(second.headers.get("etag")).toBe(etag);
      const stale = await call(route.GET, { path, headers: { "If-None-Match": '"something-else"' } });
      expect(stale.status).toBe(200);
    });
  }
});
