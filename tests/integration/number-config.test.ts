import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as testRoute from "@/app/v1/config/number/test/route";
import * as numberRoute from "@/app/v1/config/number/route";
import { getDb } from "@/db";
import { numberIntegrations } from "@/db/schema";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";

beforeEach(() => resetRateLimiters());

const put = (token: string, body: unknown) => call(numberRoute.PUT, { method: "PUT", path: "/v1/config/number", token, body });
const get = (token: string) => call(numberRoute.GET, { path: "/v1/config/number", token });

let idSeq = 0;
// Each test connects its own phone_number_id: one id may belong to one account only.
const cloudSettings = () => ({
  provider: "cloud",
  phone_number: "+14155552671",
  phone_number_id: `1065403522${String(++idSeq).padStart(5, "0")}`,
  business_account_id: "102290129340398",
  access_token: "EAAG-secret-access-token-0001",
  app_secret: "app-secret-0001",
  verify_token: "verify-token-0001",
  coexistence: true,
});

describe("GET/PUT /v1/config/number", () => {
  it("starts as a sandbox with nothing set", async () => {
    const { adminToken } = await createTestAccount();
    const res = await get(adminToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      provider: "sandbox",
      phone_number: null,
      phone_number_id: null,
      business_account_id: null,
      access_token_set: false,
      app_secret_set: false,
      verify_token: null,
      api_base_url: "https://graph.facebook.com/v21.0",
      coexistence: false,
      status: "sandbox",
      status_reason: null,
      webhook_url: "http://localhost:3000/api/network/webhook",
      quality_rating: null,
      messaging_limit_tier: null,
      health_updated_at: null,
      updated_at: expect.any(String),
    });
  });

  it("saves a cloud number with write-only, encrypted secrets", async () => {
    const cloud = cloudSettings();
    const { account, adminToken } = await createTestAccount();
    const res = await put(adminToken, cloud);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: "cloud",
      phone_number: "+14155552671",
      phone_number_id: cloud.phone_number_id,
      access_token_set: true,
      app_secret_set: true,
      verify_token: cloud.verify_token,
      coexistence: true,
      status: "pending",
    });
    const shown = JSON.stringify([res.body, (await get(adminToken)).body]);
    expect(shown).not.toContain(cloud.access_token);
    expect(shown).not.toContain(cloud.app_secret);
    const [row] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
    expect(row.accessTokenEnc).toBeTruthy();
    expect(row.accessTokenEnc).not.toContain(cloud.access_token);
    expect(row.appSecretEnc).not.toContain(cloud.app_secret);
  });

  it("keeps the stored secrets when a PUT leaves them out or blank", async () => {
    const cloud = cloudSettings();
    const { account, adminToken } = await createTestAccount();
    await put(adminToken, cloud);
    const [before] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
    const res = await put(adminToken, { ...cloud, access_token: undefined, app_secret: "", coexistence: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ access_token_set: true, app_secret_set: true, coexistence: false });
    const [after] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
    expect([after.accessTokenEnc, after.appSecretEnc]).toEqual([before.accessTokenEnc, before.appSecretEnc]);
  });

  it("names every field a cloud number is missing", async () => {
    const { adminToken } = await createTestAccount();
    const res = await put(adminToken, { provider: "cloud" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      "phone_number",
      "phone_number_id",
      "business_account_id",
      "access_token",
      "app_secret",
      "verify_token",
    ]);
  });

  it.each([
    ["14155552671", "phone_number"],
    ["+1 415 555 2671", "phone_number"],
    ["+1555", "phone_number"],
    ["+15551234567", "phone_number"],
    ["+4412", "phone_number"],
  ])("refuses phone_number %s with a 400 naming it", async (phone, field) => {
    const { account, adminToken } = await createTestAccount();
    const res = await put(adminToken, { ...cloudSettings(), phone_number: phone });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([field]);
    const [row] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
    expect(row.provider).toBe("sandbox");
  });

  it.each([
    [{ provider: "whatsapp" }, "provider"],
    [{ ...cloudSettings(), api_base_url: "ftp://graph.example" }, "api_base_url"],
    [{ ...cloudSettings(), coexistence: "yes" }, "coexistence"],
    [{ ...cloudSettings(), phone_number_id: "12 34" }, "phone_number_id"],
  ])("refuses %o naming %s", async (body, field) => {
    const { adminToken } = await createTestAccount();
    const res = await put(adminToken, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  describe("api_base_url and the outgoing URL policy", () => {
    it.each([
      ["http://169.254.169.254/latest/meta-data", /must use https/],
      ["https://169.254.169.254/v21.0", /not on the public internet/],
      ["https://127.0.0.1:8443/v21.0", /not on the public internet/],
      ["https://10.0.0.5/v21.0", /not on the public internet/],
      ["https://[::ffff:169.254.169.254]/v21.0", /not on the public internet/],
      ["https://user:pass@graph.example.com/v21.0", /user name or password/],
    ])("refuses %s with a 400 naming api_base_url, and saves nothing", async (url, reason) => {
      const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: undefined });
      try {
        const { account, adminToken } = await createTestAccount();
        const res = await put(adminToken, { ...cloudSettings(), api_base_url: url });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("validation_error");
        expect(res.body.error.details).toEqual([{ path: "api_base_url", message: expect.stringMatching(reason) }]);
        const [row] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
        expect(row).toMatchObject({ provider: "sandbox", apiBaseUrl: null });
      } finally {
        restore();
      }
    });

    it("allows a loopback test network only with WEBHOOK_ALLOW_INSECURE_TARGETS", async () => {
      const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
      try {
        const { adminToken } = await createTestAccount();
        const res = await put(adminToken, { ...cloudSettings(), api_base_url: "http://127.0.0.1:9/v21.0" });
        expect(res.status).toBe(200);
        expect(res.body.api_base_url).toBe("http://127.0.0.1:9/v21.0");
      } finally {
        restore();
      }
    });

    it("tests a stored internal api_base_url without sending the token there", async () => {
      const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: undefined });
      try {
        const { account, adminToken } = await createTestAccount();
        await put(adminToken, cloudSettings());
        // As if saved before the policy applied to this field.
        await getDb().update(numberIntegrations).set({ apiBaseUrl: "https://169.254.169.254/latest" }).where(eq(numberIntegrations.accountId, account.id));
        const res = await call(testRoute.POST, { method: "POST", path: "/v1/config/number/test", token: adminToken });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ ok: false, status: "error", message: expect.stringContaining("not on the public internet") });
      } finally {
        restore();
      }
    });
  });

  it("accepts a sandbox with an optional number and switches back from cloud", async () => {
    const { adminToken } = await createTestAccount();
    await put(adminToken, cloudSettings());
    const res = await put(adminToken, { provider: "sandbox", phone_number: "+447911123456" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "sandbox", status: "sandbox", phone_number: "+447911123456", access_token_set: true });
  });

  it("refuses a phone_number_id already connected to another account (409)", async () => {
    const a = await createTestAccount();
    const b = await createTestAccount();
    const cloud = cloudSettings();
    expect((await put(a.adminToken, cloud)).status).toBe(200);
    const res = await put(b.adminToken, cloud);
    expect(res.status).toBe(409);
  });

  it("lets agents read but not change it", async () => {
    const { account } = await createTestAccount();
    const { token } = await addTestUser(account.id, "agent");
    expect((await get(token)).status).toBe(200);
    const res = await put(token, { provider: "sandbox" });
    expect(res.status).toBe(403);
    expect((await call(testRoute.POST, { method: "POST", path: "/", token })).status).toBe(403);
  });

  it("tests the sandbox connection", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(testRoute.POST, { method: "POST", path: "/v1/config/number/test", token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: "sandbox" });
  });
});
