import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { firstAdmin, shot } from "./fixtures";

type Received = { type: string; attempt: string; eventId: string };

/** An endpoint on 127.0.0.1 that answers the challenge and, for events, whatever `status` says. */
async function startEndpoint() {
  const received: Received[] = [];
  const state = { status: 500 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      if (body.type === "webhook.verified") {
        res.writeHead(200).end(body.data.challenge);
        return;
      }
      received.push({ type: body.type, attempt: String(req.headers["x-service-delivery-attempt"]), eventId: body.id });
      res.writeHead(state.status, { "Content-Type": "text/plain" }).end(state.status === 200 ? "thanks" : "endpoint is down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chorus`, received, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
}

test("an administrator adds a webhook, sees the secret once, follows deliveries, retries, disables and deletes it", async ({ page, request }) => {
  const endpoint = await startEndpoint();
  try {
    await signIn(page, firstAdmin.email, firstAdmin.password);
    await page.goto("/settings/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

    // A URL the policy refuses is reported on the field and nothing is added.
    await page.getByLabel("Endpoint URL").fill("ftp://example.com/x");
    await page.getByRole("checkbox", { name: "user.created" }).check();
    await page.getByRole("button", { name: "Add and verify" }).click();
    await expect(page.getByText(/must use https or http/)).toBeVisible();

    await page.getByLabel("Endpoint URL").fill(endpoint.url);
    await page.getByRole("button", { name: "Add and verify" }).click();
    await expect(page.getByText("Copy the signing secret now. It is shown only this once.")).toBeVisible();
    const secret = await page.getByLabel("The new signing secret").textContent();
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByText("The endpoint answered the verification challenge")).toBeVisible();
    await page.screenshot({ path: shot("webhooks-created"), fullPage: true });
    await page.getByRole("button", { name: "I have stored the secret" }).click();
    await expect(page.getByText(secret!)).toHaveCount(0);
    await expect(page.getByRole("link", { name: endpoint.url })).toBeVisible();

    // An event: a new user, created through the API. The endpoint answers 500, so attempts fail and are retried.
    const login = await request.post("/v1/auth/login", { data: { email: firstAdmin.email, password: firstAdmin.password } });
    const token = (await login.json()).token as string;
    const created = await request.post("/v1/users", {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: "Webhook Watcher", email: `watcher-${Date.now()}@example.com`, role: "agent", password: "watcher-password-1" },
    });
    expect(created.status()).toBe(201);
    // WEBHOOK_RETRY_SCHEDULE is 1,1,1,1 for the browser tests: the five attempts take a few seconds.
    await expect.poll(() => endpoint.received.length, { timeout: 20_000 }).toBe(5);

    await page.getByRole("link", { name: endpoint.url }).click();
    await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
    await expect(page.getByRole("cell", { name: /user\.created/ }).first()).toBeVisible();
    await page.getByRole("navigation", { name: "Filter by status" }).getByRole("link", { name: "Failed" }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByText("endpoint is down").first()).toBeVisible();

    // The endpoint recovers; Retry sends the same event again at once.
    endpoint.state.status = 200;
    await page.getByRole("button", { name: "Retry" }).first().click();
    await expect(page.getByText(/Attempt \d+: succeeded \(200\)/)).toBeVisible();
    const last = endpoint.received.at(-1)!;
    expect(last.type).toBe("user.created");
    expect(new Set(endpoint.received.map((r) => r.eventId)).size).toBe(1);
    await expect(page.getByText("Last 24 hours")).toBeVisible();
    await page.screenshot({ path: shot("webhook-detail"), fullPage: true });

    await page.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByText("Disabled: no events are sent")).toBeVisible();
    await page.getByRole("button", { name: "Enable" }).click();
    await expect(page.getByText("the webhook is active")).toBeVisible();

    await page.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("group", { name: "Confirm deletion" }).getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/settings\/webhooks$/);
    await expect(page.getByText("No webhooks yet")).toBeVisible();
  } finally {
    await endpoint.close();
  }
});

test("an agent sees no webhook settings", async ({ browser, request }) => {
  const login = await request.post("/v1/auth/login", { data: { email: firstAdmin.email, password: firstAdmin.password } });
  const token = (await login.json()).token as string;
  const email = `agent-${Date.now()}@example.com`;
  await request.post("/v1/users", { headers: { Authorization: `Bearer ${token}` }, data: { name: "Alex Agent", email, role: "agent", password: "agent-password-1" } });
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, "agent-password-1");
  await page.goto("/settings/webhooks");
  await expect(page.getByText("Only administrators can manage webhooks.")).toBeVisible();
  await expect(page.getByLabel("Endpoint URL")).toHaveCount(0);
  await context.close();
});
