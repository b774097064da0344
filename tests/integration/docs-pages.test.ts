import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import * as plantStoreReference from "@/app/(app)/docs/plant-store/route";
import * as v1Reference from "@/app/(app)/docs/v1/route";
import * as plantsRoute from "@/app/plant-store/plants/route";
import { createSession } from "@/lib/auth/sessions";
import { getEnv } from "@/lib/env";
import { call } from "@/tests/support/api";
import { createTestAccount } from "@/tests/support/fixtures";

const COOKIE = "authjs.session-token";

/** The browser's sign-in cookie for a fresh session of the account's administrator. */
async function signedInCookie() {
  const { admin } = await createTestAccount();
  const session = await createSession({ user: admin });
  const value = await encode({ token: { sub: admin.id, tid: session.id, acc: admin.accountId }, secret: getEnv().AUTH_SECRET, salt: COOKIE });
  return `${COOKIE}=${value}`;
}

describe("API reference pages", () => {
  it.each([
    ["/docs/v1", v1Reference.GET],
    ["/docs/plant-store", plantStoreReference.GET],
  ])("%s sends signed-out visitors to /login and back", async (page, handler) => {
    const anonymous = await call(handler, { path: page });
    expect(anonymous.status).toBe(307);
    expect(anonymous.headers.get("location")).toBe(`/login?next=${encodeURIComponent(page)}`);
    const forged = await call(handler, { path: page, headers: { cookie: `${COOKIE}=forged` } });
    expect(forged.status).toBe(307);
  });

  it.each([
    ["/docs/v1", v1Reference.GET, "/v1/openapi.json", "Chorus API reference"],
    ["/docs/plant-store", plantStoreReference.GET, "/plant-store/openapi.json", "Plant Store API reference"],
  ])("%s renders the Scalar reference of its document for a signed-in user", async (page, handler, documentUrl, title) => {
    const res = await call(handler, { path: page, headers: { cookie: await signedInCookie() } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    expect(res.text).toContain(`<title>${title}</title>`);
    expect(res.text).toContain(JSON.stringify(documentUrl).slice(1, -1));
    expect(res.text).toMatch(/@scalar\/api-reference/);
    // Readable when the viewer's script cannot load.
    expect(res.text).toMatch(new RegExp(`<div id="app">[\\s\\S]*<a href="${documentUrl}">`));
    expect(res.text).toContain('<html lang="en">');
  });

  it("lets the reference's try-it calls reach the plant store with the browser session", async () => {
    const cookie = await signedInCookie();
    const created = await call(plantsRoute.POST, { method: "POST", path: "/plant-store/plants", body: { name: "Pilea" }, headers: { cookie } });
    expect(created.status).toBe(200);
    const listed = await call(plantsRoute.GET, { path: "/plant-store/plants", headers: { cookie } });
    expect(listed.body).toEqual([created.body]);
  });
});
