import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as setupRoute from "@/app/api/setup/route";
import { getDb } from "@/db";
import { accounts, users } from "@/db/schema";
import { call } from "@/tests/support/api";

const valid = { account_name: "Green Leaf", name: "Olivia", email: "Olivia@Example.com", password: "long-enough-password" };
const countRows = async () => ({
  accounts: (await getDb().select({ n: count() }).from(accounts))[0].n,
  users: (await getDb().select({ n: count() }).from(users))[0].n,
});

describe("first run", () => {
  it.each([
    ["a weak password", { ...valid, password: "short" }, "password"],
    ["a bad email", { ...valid, email: "not-an-email" }, "email"],
    ["a missing account name", { ...valid, account_name: "" }, "account_name"],
  ])("refuses %s with a 400 naming the field and creates nothing", async (_name, body, field) => {
    const res = await call(setupRoute.POST, { method: "POST", path: "/api/setup", body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details[0].path).toBe(field);
    expect(await countRows()).toEqual({ accounts: 0, users: 0 });
  });

  it("refuses malformed JSON with 400 invalid_json", async () => {
    const res = await call(setupRoute.POST, { method: "POST", path: "/api/setup", rawBody: "{", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_json");
  });

  it("creates the account and its first admin once, then answers 409", async () => {
    const res = await call(setupRoute.POST, { method: "POST", path: "/api/setup", body: valid });
    expect(res.status).toBe(201);
    expect(res.body.account.id).toMatch(/^acc_/);
    expect(res.body.user).toMatchObject({ role: "admin", email: "olivia@example.com", name: "Olivia" });
    expect(res.text).not.toContain("password");
    const again = await call(setupRoute.POST, { method: "POST", path: "/api/setup", body: { ...valid, email: "x@example.com" } });
    expect(again.status).toBe(409);
    expect(await countRows()).toEqual({ accounts: 1, users: 1 });
  });

  it("answers 409 once set up, whatever the body", async () => {
    await call(setupRoute.POST, { method: "POST", path: "/api/setup", body: valid });
    for (const request of [
      { body: { ...valid, password: "short" } },
      { body: {} },
      { rawBody: "{", headers: { "content-type": "application/json" } },
    ]) {
      const res = await call(setupRoute.POST, { method: "POST", path: "/api/setup", ...request });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("conflict");
    }
    expect(await countRows()).toEqual({ accounts: 1, users: 1 });
  });

  it("answers other methods with 405", async () => {
    const res = await call(setupRoute.GET, { path: "/api/setup" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
