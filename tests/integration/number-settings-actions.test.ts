import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { saveNumberSettingsAction, testNumberConnectionAction } from "@/app/(app)/settings/number/actions";
import { getDb } from "@/db";
import { numberIntegrations, type User } from "@/db/schema";
import { createSession } from "@/lib/auth/sessions";
import { getEnv } from "@/lib/platform/env";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { systemContext } from "@/lib/server/context";

// Server actions read the browser's sign-in cookie from the request headers.
let cookie = "";
vi.mock("next/headers", () => ({ headers: async () => new Headers({ cookie }) }));

async function signInAs(user: User) {
  const session = await createSession(systemContext().db, { user });
  const salt = "authjs.session-token";
  const value = await encode({ token: { sub: user.id, tid: session.id, acc: user.accountId }, secret: getEnv().AUTH_SECRET, salt });
  cookie = `${salt}=${value}`;
}

beforeEach(() => {
  cookie = "";
});

describe("Settings → Number server actions", () => {
  it("save with the same rules as the API for an administrator", async () => {
    const { account, admin } = await createTestAccount();
    await signInAs(admin);
    const bad = await saveNumberSettingsAction({ provider: "cloud", phone_number: "14155552671" });
    expect(bad).toMatchObject({ ok: false, status: 400, fieldErrors: { phone_number: expect.any(String) } });
    const missing = await saveNumberSettingsAction({ provider: "cloud", phone_number: "+14155552671" });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(Object.keys(missing.fieldErrors)).toEqual(["phone_number_id", "business_account_id", "access_token", "app_secret", "verify_token"]);
    const saved = await saveNumberSettingsAction({ provider: "sandbox", phone_number: "+14155552671", coexistence: true, access_token: "" });
    expect(saved).toMatchObject({ ok: true, data: { provider: "sandbox", phone_number: "+14155552671", coexistence: true } });
    const tested = await testNumberConnectionAction();
    expect(tested).toMatchObject({ ok: true, data: { ok: true, status: "sandbox" } });
    const [row] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
    expect(row.phoneNumber).toBe("+14155552671");
  });

  it("answer 403 to an agent and change nothing", async () => {
    const { account } = await createTestAccount();
    const { user } = await addTestUser(account.id, "agent");
    await signInAs(user);
    expect(await saveNumberSettingsAction({ provider: "sandbox", phone_number: "+14155552671" })).toMatchObject({ ok: false, status: 403 });
    expect(await testNumberConnectionAction()).toMatchObject({ ok: false, status: 403 });
    const [row] = await getDb().select().from(numberIntegrations).where(eq(numberIntegrations.accountId, account.id));
    expect(row.phoneNumber).toBeNull();
  });
});
