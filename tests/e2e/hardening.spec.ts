import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { buildInboundPayload, type FakeCloudNetwork, signHubPayload, startFakeCloudNetwork } from "../support/fake-cloud-network";
import { shot } from "./fixtures";
import { adminApiToken, signInAsOwner } from "./helpers";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// Servers this test file starts itself (a bad environment, a log capture), beside the shared one.
const OWN_PORT = PORT + 500;

/** A raw request with node:http: fetch refuses TRACE. */
function rawRequest(method: string, path: string, port = PORT): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

test.describe("media XSS", () => {
  let network: FakeCloudNetwork;
  test.beforeAll(async () => {
    network = await startFakeCloudNetwork({ accessToken: "EAAG-xss-token", phoneNumberId: "106540352299999" });
  });
  test.afterAll(async ({ request }) => {
    // Later tests simulate customers, which needs the sandbox back.
    const token = await adminApiToken(request);
    const reset = await request.put("/v1/config/number", { headers: { authorization: `Bearer ${token}` }, data: { provider: "sandbox" } });
    expect(reset.status()).toBe(200);
    await network.close();
  });

  test("opening a customer's HTML or SVG media signed in runs no script", async ({ page, request }) => {
    const token = await adminApiToken(request);
    const auth = { authorization: `Bearer ${token}` };
    const appSecret = "xss-app-secret";
    const configured = await request.put("/v1/config/number", {
      headers: auth,
      data: {
        provider: "cloud",
        phone_number: "+14155552671",
        phone_number_id: network.phoneNumberId,
        business_account_id: "102290129340398",
        access_token: "EAAG-xss-token",
        app_secret: appSecret,
        verify_token: "xss-verify",
        api_base_url: network.apiBaseUrl,
      },
    });
    expect(configured.status()).toBe(200);

    // A page that, run on the app's origin, would mint a token with the viewer's cookie.
    const payload = `<!doctype html><title>owned</title><script>fetch('/v1/auth/tokens',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({name:'xss',permissions:['users:read'],expires_at:new Date(Date.now()+2*864e5).toISOString()})});document.title='ran'</script>`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><script>fetch('/v1/auth/tokens',{method:'POST'});</script></svg>`;
    const htmlId = network.addMedia({ bytes: Buffer.from(payload), mimeType: "text/html" });
    const svgId = network.addMedia({ bytes: Buffer.from(svg), mimeType: "image/svg+xml" });
    const from = `1555${Date.now() % 10_000_000}`.padEnd(11, "7");
    const rawBody = JSON.stringify(
      buildInboundPayload({
        phoneNumberId: network.phoneNumberId,
        messages: [
          { from, name: "Mallory", type: "document", media: { id: htmlId, mimeType: "text/html", filename: "invoice.html" } },
          { from, name: "Mallory", type: "image", media: { id: svgId, mimeType: "image/svg+xml" } },
        ],
      }),
    );
    const delivered = await request.post("/api/network/webhook", {
      headers: { "content-type": "application/json", "x-hub-signature-256": signHubPayload({ appSecret, rawBody }) },
      data: rawBody,
    });
    expect(delivered.status()).toBe(200);

    // The media is fetched by a background job; wait for both messages to be stored.
    type Message = { id: string; type: string; media?: { mime_type: string; url: string } };
    let media: Message[] = [];
    await expect
      .poll(
        async () => {
          const list = await (await request.get("/v1/conversations?limit=100", { headers: auth })).json();
          const conv = list.data.find((c: { contact: { phone: string } }) => c.contact.phone === from);
          if (!conv) return 0;
          const messages = await (await request.get(`/v1/conversations/${conv.id}/messages`, { headers: auth })).json();
          media = messages.data.filter((m: Message) => m.media);
          return media.length;
        },
        { timeout: 20_000 },
      )
      .toBe(2);
    for (const m of media) {
      expect(m.type).toBe("document");
      expect(m.media!.mime_type).toBe("application/octet-stream");
    }
    const tokensBefore = (await (await request.get("/v1/auth/tokens?limit=100", { headers: auth })).json()).data.length;

    await signInAsOwner(page);
    const minted: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/v1/auth/tokens") && r.method() === "POST") minted.push(r.url());
    });
    for (const m of media) {
      const url = new URL(m.media!.url, page.url()).href;
      const headers = (await page.request.get(url)).headers();
      expect(headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["content-disposition"]).toMatch(/^attachment/);
      // Opened directly, the browser downloads the file instead of rendering it on our origin.
      const download = page.waitForEvent("download", { timeout: 10_000 });
      await page.goto(url).catch(() => {});
      await download;
    }
    await page.waitForTimeout(500);
    expect(minted).toEqual([]);
    expect(await page.title()).not.toBe("ran");
    const tokensAfter = (await (await request.get("/v1/auth/tokens?limit=100", { headers: auth })).json()).data.length;
    expect(tokensAfter).toBe(tokensBefore);
  });
});

test("TRACE, OPTIONS and other unserved methods answer 405 with the error body, Allow and a request id", async () => {
  for (const [method, path, allow] of [
    ["TRACE", "/v1/conversations", "GET, HEAD"],
    ["OPTIONS", "/v1/conversations", "GET, HEAD"],
    ["TRACE", "/v1/auth/login", "POST"],
    ["PROPFIND", "/v1/webhooks", "GET, POST, HEAD"],
    ["TRACE", "/inbox", "GET, HEAD, POST"],
    ["OPTIONS", "/login", "GET, HEAD, POST"],
    ["TRACE", "/healthz", "GET, HEAD"],
  ] as const) {
    const res = await rawRequest(method, path);
    expect(res.status, `${method} ${path}`).toBe(405);
    expect(res.headers.allow, `${method} ${path}`).toBe(allow);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const body = JSON.parse(res.body);
    expect(body.error.code).toBe("method_not_allowed");
    expect(body.error.message).toContain(method);
    expect(res.headers["x-request-id"]).toBe(body.request_id);
  }
  const plants = await rawRequest("TRACE", "/plant-store/plants");
  expect(plants.status).toBe(405);
  expect(JSON.parse(plants.body)).toMatchObject({ error: 405 });
  expect(plants.headers.allow).toBe("GET, POST, HEAD");
});

test("pages run under a nonce-based CSP: headers present, the inbox works, no violation reported", async ({ page, request }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(message.text())) violations.push(message.text());
  });
  const login = await request.get("/login");
  const csp = login.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(login.headers()["x-content-type-options"]).toBe("nosniff");
  expect(login.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  expect(await login.text()).toContain(`nonce="${nonce}"`);

  await signInAsOwner(page);
  // Live updates and the composer still work: a simulated customer's message shows up.
  const token = await adminApiToken(request);
  const from = `1666${Date.now() % 10_000_000}`.padEnd(11, "3");
  const simulated = await request.post("/api/sandbox/inbound", { headers: { authorization: `Bearer ${token}` }, data: { from, name: "CSP Check", type: "text", text: "Does the inbox still work?" } });
  expect(simulated.status()).toBe(201);
  await expect(page.getByText("CSP Check").first()).toBeVisible({ timeout: 15_000 });
  await page.getByText("CSP Check").first().click();
  await expect(page.getByText("Does the inbox still work?").first()).toBeVisible();
  await page.screenshot({ path: shot("hardening-inbox-under-csp") });
  for (const path of ["/reports", "/settings/tokens", "/docs"]) {
    await page.goto(path);
    await expect(page.locator("main").first()).toBeVisible();
  }
  expect(violations).toEqual([]);
});

/** Starts `next start` on the build with extra environment; resolves with its output and exit. */
function startOwnServer(env: Record<string, string>) {
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(OWN_PORT)], {
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      PGLITE_DIR: "memory://",
      DATABASE_URL: "",
      AUTH_SECRET: "hardening-e2e-secret-0123456789-abcdefghij",
      APP_URL: `http://localhost:${OWN_PORT}`,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (c: Buffer) => output.push(c.toString()));
  child.stderr!.on("data", (c: Buffer) => output.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  return { output, exited, stop };
}

test("a bad environment value stops the production server with exit 1 and one line naming it", async () => {
  test.setTimeout(90_000);
  const server = startOwnServer({ RATE_LIMIT_PER_MINUTE: "10000000" });
  try {
    const code = await Promise.race([server.exited, new Promise<"running">((r) => setTimeout(() => r("running"), 60_000))]);
    expect(code).toBe(1);
    const lines = server.output.join("").split("\n").filter((l) => /Invalid environment variable|Error|\s+at /.test(l));
    expect(lines).toEqual(["Invalid environment variable RATE_LIMIT_PER_MINUTE: Too big: expected number to be <=1000000"]);
  } finally {
    server.stop();
    await server.exited;
  }
});

test("the production server's log holds no email, password, hash, token, secret or message text", async () => {
  test.setTimeout(180_000);
  const server = startOwnServer({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true" });
  const base = `http://127.0.0.1:${OWN_PORT}`;
  try {
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, { timeout: 100_000, message: `server output: ${server.output.join("")}` })
      .toBe(200);
    const email = "log.probe@example.com";
    const password = "probe-password-123";
    const setup = await fetch(`${base}/api/setup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account_name: "Log Probe", name: "Probe", email, password }),
    });
    expect(setup.status).toBe(201);
    const signIn = (pw: string, mail = email) =>
      fetch(`${base}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: mail, password: pw }) });
    expect((await signIn("wrong-password-777")).status).toBe(401);
    expect((await signIn("nul\u0000password", "nul\u0000@example.com")).status).toBe(400);
    const session = await (await signIn(password)).json();
    const auth = { authorization: `Bearer ${session.token}`, "content-type": "application/json" };
    const text = "my card number is 4111 1111 1111 1111";
    expect((await fetch(`${base}/api/sandbox/inbound`, { method: "POST", headers: auth, body: JSON.stringify({ from: "15550001111", type: "text", text }) })).status).toBe(201);
    const user = { name: "Dup", email: "dup.probe@example.com", role: "agent", password: "another-password-1" };
    const first = await fetch(`${base}/v1/users`, { method: "POST", headers: auth, body: JSON.stringify(user) });
    expect(first.status).toBe(201);
    // Two at once: the loser hits the unique index (a logged conflict).
    await Promise.all([1, 2].map(() => fetch(`${base}/v1/users`, { method: "POST", headers: auth, body: JSON.stringify({ ...user, email: "race.probe@example.com" }) })));
    expect((await fetch(`${base}/v1/conversations/conv_%00`, { headers: auth })).status).toBe(400);
    await fetch(`${base}/v1/conversations`, { headers: { cookie: "authjs.session-token=%E0%A4%A" } });
    await new Promise((r) => setTimeout(r, 1000));
    const log = server.output.join("");
    for (const secret of [email, password, "wrong-password-777", "4111 1111", session.token, "$argon2", user.email, user.password, "race.probe"]) {
      expect(log, secret).not.toContain(secret);
    }
  } finally {
    server.stop();
    await server.exited;
  }
});
