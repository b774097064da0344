import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type BrowserContext, expect, type Page } from "@playwright/test";
import { firstAdmin } from "./fixtures";

// Sign-ins are limited to 10 a minute per address and per email, and every test of a run comes
// from the same address: the first administrator signs in once per run and the session is reused.
// Kept in the output folder, which Playwright empties at the start of each run (and whose server
// starts with an empty database), so a worker restarted after a failure reuses it too.
const sessionDir = path.join("test-results", ".sessions");

async function once<T>(name: string, create: () => Promise<T>): Promise<T> {
  const file = path.join(sessionDir, `${name}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    const value = await create();
    mkdirSync(sessionDir, { recursive: true });
    writeFileSync(file, JSON.stringify(value));
    return value;
  }
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
}

/** A session token for the first administrator, through the API (one sign-in per run). */
export async function adminApiToken(request: APIRequestContext): Promise<string> {
  return once("owner-token", async () => {
    const res = await request.post("/v1/auth/login", { data: { email: firstAdmin.email, password: firstAdmin.password } });
    expect(res.status()).toBe(200);
    return (await res.json()).token as string;
  });
}

/** The first administrator's browser session, signed in through the login page once per run. */
export async function signInAsOwner(page: Page) {
  type Cookies = Awaited<ReturnType<BrowserContext["cookies"]>>;
  const cookies = await once<Cookies>("owner-cookies", async () => {
    await signIn(page, firstAdmin.email, firstAdmin.password);
    return page.context().cookies();
  });
  await page.context().addCookies(cookies);
  await page.goto("/inbox");
  await expect(page).toHaveURL(/\/inbox/);
}

/** Creates a teammate through the users API and returns their credentials. */
export async function createTeammate(request: APIRequestContext, role: "admin" | "agent", name: string) {
  const token = await adminApiToken(request);
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}@greenleaf.example`;
  const password = "teammate-password-1";
  const res = await request.post("/v1/users", { headers: { authorization: `Bearer ${token}` }, data: { name, email, role, password } });
  expect(res.status()).toBe(201);
  return { ...(await res.json()), password } as { id: string; name: string; email: string; password: string };
}

/** A new administrator who reads Chorus in `locale` (their own setting, through the API). */
export async function adminSpeaking(request: APIRequestContext, locale: "es" | "pt-BR", name: string) {
  const admin = await createTeammate(request, "admin", name);
  const login = await request.post("/v1/auth/login", { data: { email: admin.email, password: admin.password } });
  expect(login.status()).toBe(200);
  const token = (await login.json()).token as string;
  const patched = await request.patch("/v1/users/me", { headers: { authorization: `Bearer ${token}` }, data: { locale } });
  expect(patched.status(), await patched.text()).toBe(200);
  return admin;
}

let written = 0;
/** A customer writes in through the sandbox, from a number of their own; returns the conversation's id. */
export async function customerWrites(request: APIRequestContext, name: string, text: string) {
  const token = await adminApiToken(request);
  written += 1;
  const from = `4477009${String(Date.now() % 10000).padStart(4, "0")}${written % 10}`;
  const res = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name, type: "text", text } });
  expect(res.status(), await res.text()).toBe(201);
  const body = await res.json();
  return (body.conversation_id ?? body.message?.conversation_id ?? body.conversation?.id) as string;
}
