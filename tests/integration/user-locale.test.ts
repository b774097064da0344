import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as setupRoute from "@/app/api/setup/route";
import * as meRoute from "@/app/v1/users/me/route";
import { getDb } from "@/db";
import { businessProfiles, users } from "@/db/schema";
import { createApiToken } from "@/lib/auth/api-tokens";
import { interfaceLocaleOf } from "@/lib/users/locale";
import { call } from "@/tests/support/api";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";

const patchMe = (token: string | undefined, body: unknown) => call(meRoute.PATCH, { method: "PATCH", path: "/v1/users/me", token, body });
const storedLocale = async (id: string) => (await getDb().select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0].locale;

describe("the interface language a person chooses", () => {
  it("starts as the browser's language when the first administrator sets up Chorus", async () => {
    const res = await call(setupRoute.POST, {
      method: "POST",
      path: "/api/setup",
      headers: { "accept-language": "es-AR,es;q=0.9,en;q=0.8" },
      body: { account_name: "Verde Hoja", name: "Lucía", email: "lucia@example.com", password: "long-enough-password" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.user.locale).toBe("es");
    expect(await storedLocale(res.body.user.id)).toBe("es");
  });

  it("is set by PATCH /v1/users/me from any session, whatever the role, and shown on the user", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    expect((await call(meRoute.GET, { path: "/v1/users/me", token: agent.token })).body.locale).toBeNull();

    const res = await patchMe(agent.token, { locale: "pt-BR" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: agent.user.id, locale: "pt-BR" });
    expect((await call(meRoute.GET, { path: "/v1/users/me", token: agent.token })).body.locale).toBe("pt-BR");
    expect(await interfaceLocaleOf(getDb(), { accountId: account.id, userId: agent.user.id })).toBe("pt-BR");
  });

  it("refuses an unknown language, an extra field, an API token and no token, changing nothing", async () => {
    const { account, adminToken, admin } = await createTestAccount();
    expect((await patchMe(adminToken, { locale: "es" })).status).toBe(200);

    for (const body of [{ locale: "pt" }, { locale: "fr" }, { locale: null }, {}, { locale: "es", name: "x" }, "es"]) {
      const res = await patchMe(adminToken, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
    }
    const apiToken = (await createApiToken({ ctx: await bearerContext(adminToken), input: { name: "ci", permissions: ["users:read"], expires_at: new Date(Date.now() + 3 * 86_400_000) } })).token;
    expect((await patchMe(apiToken, { locale: "en" })).status).toBe(403);
    expect((await patchMe(undefined, { locale: "en" })).status).toBe(401);
    expect(await storedLocale(admin.id)).toBe("es");
    expect(await interfaceLocaleOf(getDb(), { accountId: account.id, userId: admin.id })).toBe("es");
  });

  it("without a choice follows the account's business language, Portuguese as pt-BR", async () => {
    const { account, admin } = await createTestAccount();
    expect(await interfaceLocaleOf(getDb(), { accountId: account.id, userId: admin.id })).toBe("en");
    await getDb().update(businessProfiles).set({ language: "pt" }).where(eq(businessProfiles.accountId, account.id));
    expect(await interfaceLocaleOf(getDb(), { accountId: account.id, userId: admin.id })).toBe("pt-BR");
  });
});
