import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { firstAdmin } from "./fixtures";

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
}

/** A session token for the first administrator, through the API. */
export async function adminApiToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/v1/auth/login", { data: { email: firstAdmin.email, password: firstAdmin.password } });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
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
