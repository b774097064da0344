import { type ChildProcess, spawn } from "node:child_process";
import { connect, createServer, type Server, type Socket } from "node:net";
import { expect, test } from "@playwright/test";
import { type PostgresServer, postgresBinaries, startPostgresServer } from "../support/postgres-server";

// The production server (scripts/server.mjs) on a PostgreSQL server of its own, stopped and
// started again while a signed-in browser and an API client use it.
const PORT = Number(process.env.E2E_PORT ?? 3100) + 7;
const base = `http://127.0.0.1:${PORT}`;
const admin = { account_name: "Outage Plants", name: "Olga Owner", email: "olga.outage@example.com", password: "outage-password-123" };

let database: PostgresServer | undefined;
let server: ChildProcess | undefined;
let output = "";

/**
 * A TCP relay between the app and PostgreSQL that can go silent, as a network partition does:
 * connections stay open (no reset, no refusal) and nothing more passes either way.
 */
function startRelay(targetPort: number) {
  const pairs = new Set<[Socket, Socket]>();
  let silent = false;
  const relay: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.on("data", (chunk) => void (silent || upstream.write(chunk)));
    upstream.on("data", (chunk) => void (silent || client.write(chunk)));
  });
  return {
    listen: () => new Promise<number>((resolve) => relay.listen(0, "127.0.0.1", () => resolve((relay.address() as { port: number }).port))),
    silence: () => void (silent = true),
    /** The network is back: what was open through the partition is gone, new connections pass. */
    restore: () => {
      silent = false;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
    },
    close: () => relay.close(),
  };
}
let relay: ReturnType<typeof startRelay> | undefined;

test.skip(!postgresBinaries(), "PostgreSQL's server binaries are not installed");

test.beforeAll(async () => {
  test.setTimeout(180_000);
  database = await startPostgresServer();
  relay = startRelay(database.port);
  const relayed = database.url.replace(`:${database.port}/`, `:${await relay.listen()}/`);
  server = spawn(process.execPath, ["scripts/server.mjs"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      PORT: String(PORT),
      APP_URL: base,
      DATABASE_URL: relayed,
      AUTH_SECRET: "db-outage-e2e-secret-0123456789-abcdefghij",
    },
  });
  server.stdout!.on("data", (c: Buffer) => (output = (output + c).slice(-20_000)));
  server.stderr!.on("data", (c: Buffer) => (output = (output + c).slice(-20_000)));
  for (let i = 0; (await fetch(`${base}/healthz`).catch(() => null))?.status !== 200; i++) {
    if (i > 1_500 || server.exitCode !== null) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const setup = await fetch(`${base}/api/setup`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(admin) });
  expect(setup.status, await setup.text()).toBe(201);
});

test.afterAll(async () => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  relay?.close();
  database?.destroy();
});

test("while the database is down, pages and the API answer 503 with Retry-After within 2 s, and the page recovers by itself", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
  const login = await fetch(`${base}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: admin.email, password: admin.password }) });
  const { token } = (await login.json()) as { token: string };

  await database!.stop();
  try {
    for (const path of ["/inbox", "/settings/account"]) {
      const started = Date.now();
      const response = await page.goto(`${base}${path}`);
      const ms = Date.now() - started;
      expect(response?.status(), `${path}: ${output.slice(-2_000)}`).toBe(503);
      expect(response?.headers()["retry-after"]).toBe("5");
      expect(ms, `${path} answered in ${ms} ms`).toBeLessThan(2_500);
      await expect(page.getByRole("heading", { name: "Chorus can’t reach its database" })).toBeVisible();
      await expect(page.getByText(/retrying/)).toBeVisible();
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const link = page.getByRole("link", { name: "Try again now" });
    const box = await link.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: "test-results/db-outage-phone.png" });

    // The API says the same to a client, within 2 s and with Retry-After.
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await fetch(`${base}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } });
      const ms = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
      expect(ms).toBeLessThan(2_000);
    }
  } finally {
    await database!.start();
  }
  // The page reloads itself; once the database answers it is the inbox again.
  await expect(page.getByRole("heading", { name: "Chorus can’t reach its database" })).toBeHidden({ timeout: 30_000 });
  expect(page.url()).toBe(`${base}/settings/account`);
  const back = await fetch(`${base}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } });
  expect(back.status).toBe(200);
});

test("a database that goes silent (a network partition) still gets every request answered within 2 s", async ({ request }) => {
  test.setTimeout(90_000);
  const login = await request.post(`${base}/v1/auth/login`, { data: { email: admin.email, password: admin.password } });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const list = () => fetch(`${base}/v1/conversations`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(20_000) });
  expect((await list()).status).toBe(200);

  relay!.silence();
  try {
    // Open connections hang rather than fail: without a bound these waited for ever.
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await list();
      const ms = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      const body = (await res.json()) as { error: { code: string }; request_id: string };
      expect(body.error.code).toBe("service_unavailable");
      expect(body.request_id).toMatch(/^req_/);
      expect(ms, `answered in ${Math.round(ms)} ms`).toBeLessThan(2_500);
    }
    const started = performance.now();
    const page = await fetch(`${base}/login`, { signal: AbortSignal.timeout(20_000) });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect([200, 503]).toContain(page.status);
    // The liveness probe never waits on the database.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  } finally {
    relay!.restore();
  }
  await expect.poll(async () => (await list()).status, { timeout: 30_000 }).toBe(200);
});

test("a form saved while the database is unreachable keeps what was typed and says so, retrying, until it is back", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
  await page.goto(`${base}/settings/survey`);
  const question = page.getByLabel("Question");
  const typed = "How did we do with your plants today?";
  await question.fill(typed);

  const banner = page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "Chorus can’t reach its database" }) });
  // A partition (the action hangs; the server answers for it) and a stopped server (the action's
  // statement fails at once): the same state either way.
  for (const outage of ["partition", "stopped"] as const) {
    if (outage === "partition") relay!.silence();
    else await database!.stop();
    try {
      const started = Date.now();
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && r.url().startsWith(`${base}/settings/survey`)),
        page.getByRole("button", { name: "Save survey" }).click(),
      ]);
      if (outage === "partition") {
        // Answered by the server itself: a 503 with Retry-After, within about 2 s.
        expect(response.status()).toBe(503);
        expect(response.headers()["retry-after"]).toBe("5");
        expect(Date.now() - started).toBeLessThan(2_500);
      }
      await expect(banner).toBeVisible();
      await expect(banner).toContainText("retrying");
      await expect(page.getByText("Nothing was saved; what you entered is still here")).toBeVisible();
      // No error page: the form and what was typed are still there.
      await expect(question).toHaveValue(typed);
      await expect(page.getByRole("button", { name: "Save survey" })).toBeEnabled();
      if (outage === "partition") {
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.screenshot({ path: "test-results/db-outage-form-phone.png" });
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.screenshot({ path: "test-results/db-outage-form-desktop.png" });
      }
    } finally {
      if (outage === "partition") relay!.restore();
      else await database!.start();
    }
    // The banner goes by itself once the database answers; then the same form saves.
    await expect(banner).toBeHidden({ timeout: 30_000 });
    await expect(question).toHaveValue(typed);
  }
  await page.getByRole("button", { name: "Save survey" }).click();
  await expect(page.getByText(/^Saved\./)).toBeVisible({ timeout: 15_000 });
  await page.reload();
  await expect(page.getByLabel("Question")).toHaveValue(typed);
});

test("signing in while the database is unreachable says the service is unavailable, not a wrong password, in the page's language", async ({ browser }) => {
  test.setTimeout(150_000);
  // A stopped server (the check of the password fails at once) and a partition (it hangs and the
  // server answers for it), in English, Spanish and Portuguese.
  const cases = [
    { outage: "stopped", locale: "en-US", labels: ["Email", "Password", "Sign in"], says: /can’t reach its database.*try again/i, refused: "Wrong email or password." },
    { outage: "partition", locale: "en-US", labels: ["Email", "Password", "Sign in"], says: /can’t reach its database.*try again/i, refused: "Wrong email or password." },
    { outage: "stopped", locale: "es-ES", labels: ["Correo electrónico", "Contraseña", "Iniciar sesión"], says: /no puede conectar con su base de datos.*inténtalo de nuevo/i, refused: "El correo o la contraseña no son correctos." },
    { outage: "partition", locale: "pt-BR", labels: ["E-mail", "Senha", "Entrar"], says: /não consegue acessar o banco de dados.*tente de novo/i, refused: "E-mail ou senha incorretos." },
  ] as const;
  // With the database up, a wrong password is still told as one.
  {
    const page = await browser.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel("Email", { exact: true }).fill(admin.email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password-1");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");
    await page.close();
  }
  for (const { outage, locale, labels, says, refused } of cases) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/login`);
      const [email, password, submit] = labels;
      await page.getByLabel(email, { exact: true }).fill(admin.email);
      await page.getByLabel(password, { exact: true }).fill(admin.password);
      if (outage === "partition") relay!.silence();
      else await database!.stop();
      try {
        await page.getByRole("button", { name: submit, exact: true }).click();
        const alert = page.locator("form").getByRole("alert");
        await expect(alert, `${outage}, ${locale}`).toContainText(says, { timeout: 15_000 });
        await expect(alert).not.toContainText(refused);
        // What was typed stays, ready for the retry.
        await expect(page.getByLabel(email, { exact: true })).toHaveValue(admin.email);
        if (locale === "pt-BR") {
          await page.setViewportSize({ width: 390, height: 844 });
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
          await page.screenshot({ path: "test-results/db-outage-sign-in-phone.png" });
        }
      } finally {
        if (outage === "partition") relay!.restore();
        else await database!.start();
      }
      // Once the database answers, the same email and password sign in.
      await expect
        .poll(
          async () => {
            if (!new URL(page.url()).pathname.startsWith("/inbox")) {
              await page.getByRole("button", { name: submit, exact: true }).click({ timeout: 5_000 }).catch(() => {});
              await page.waitForURL(/\/inbox/, { timeout: 5_000 }).catch(() => {});
            }
            return new URL(page.url()).pathname;
          },
          { timeout: 40_000, intervals: [1_000] },
        )
        .toMatch(/^\/inbox/);
    } finally {
      await context.close();
    }
  }
});
