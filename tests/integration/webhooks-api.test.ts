import { randomBytes } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as usersRoute from "@/app/v1/users/route";
import * as collection from "@/app/v1/webhooks/route";
import * as item from "@/app/v1/webhooks/[id]/route";
import * as verify from "@/app/v1/webhooks/[id]/verify/route";
import * as logs from "@/app/v1/webhooks/[id]/logs/route";
import * as stats from "@/app/v1/webhooks/[id]/stats/route";
import * as retry from "@/app/v1/webhooks/[id]/deliveries/[delivery_id]/retry/route";
import { getDb } from "@/db";
import { events, idempotencyKeys, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, createTestAccount } from "@/tests/support/fixtures";
import { type WebhookReceiver, startReceiver } from "@/tests/support/webhook-receiver";
import { verifyDelivery } from "@/tests/support/webhook-verifier";
import { drain } from "@/tests/support/webhooks";

let receiver: WebhookReceiver;
let restoreEnv: () => void;

beforeAll(async () => {
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "2000" });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  restoreEnv();
});
afterEach(() => {
  receiver.respond(() => ({ status: 200, body: "ok" }));
  receiver.challenge((r) => ({ status: 200, body: String(r.json?.data?.challenge ?? "") }));
});

const create = (token: string, body: unknown, headers?: Record<string, string>) =>
  call(collection.POST, { method: "POST", path: "/v1/webhooks", token, body, headers });

async function webhookCount(accountId: string) {
  const [{ n }] = await getDb().select({ n: count() }).from(webhooks).where(eq(webhooks.accountId, accountId));
  return Number(n);
}

describe("POST /v1/webhooks", () => {
  it("registers a webhook, passes the signed challenge and shows the secret only in the 201", async () => {
    const { account, adminToken } = await createTestAccount();
    const before = receiver.requests.length;
    const res = await create(adminToken, { url: receiver.url, events: ["message.received", "conversation.created"] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
      url: receiver.url,
      events: ["message.received", "conversation.created"],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{32}$/),
      status: "active",
      status_reason: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });

    // The challenge: one signed POST of a webhook.verified envelope, answered before the 201.
    const challenge = receiver.requests.slice(before);
    expect(challenge).toHaveLength(1);
    const [req] = challenge;
    expect(req.method).toBe("POST");
    expect(req.json).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "webhook.verified",
      created_at: expect.stringMatching(/Z$/),
      data: { webhook_id: res.body.id, challenge: expect.any(String) },
    });
    expect(req.json.data.challenge.length).toBeGreaterThanOrEqual(16);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toBe("Chorus-Webhooks/1");
    expect(req.headers["x-service-event-id"]).toBe(req.json.id);
    expect(req.headers["x-service-event-type"]).toBe("webhook.verified");
    expect(req.headers["x-service-delivery-id"]).toMatch(/^dlv_/);
    expect(req.headers["x-service-delivery-attempt"]).toBe("1");
    expect(req.headers["webhook-id"]).toBe(req.json.id);
    expect(verifyDelivery(req, res.body.secret)).toEqual([]);

    // The event is recorded too.
    const [event] = await getDb().select().from(events).where(eq(events.id, req.json.id));
    expect(event).toMatchObject({ accountId: account.id, type: "webhook.verified" });

    const got = await call(item.GET, { path: `/v1/webhooks/${res.body.id}`, token: adminToken, params: { id: res.body.id } });
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    expect(got.text).not.toContain(res.body.secret);
    const list = await call(collection.GET, { path: "/v1/webhooks", token: adminToken });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([res.body.id]);
    expect(list.text).not.toContain(res.body.secret);
    expect(list.body.pagination).toEqual({ next_cursor: null, has_more: false });
  });

  it("signs with a caller-chosen secret (whsec_ + base64, 16..128 characters)", async () => {
    const { adminToken } = await createTestAccount();
    const secret = "whsec_bXktb3duLXNlY3JldC0wMTIzNDU2Nzg5";
    const before = receiver.requests.length;
    const res = await create(adminToken, { url: receiver.url, events: ["*"], secret });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBe(secret);
    expect(res.body.events).toEqual(["*"]);
    expect(verifyDelivery(receiver.requests[before], secret)).toEqual([]);
  });

  it("is verified by the unedited standardwebhooks library, with a generated and with a chosen secret, on real deliveries", async () => {
    const { adminToken } = await createTestAccount();
    const chosen = `whsec_${randomBytes(32).toString("base64")}`;
    for (const [i, secret] of [undefined, chosen].entries()) {
      const url = `${receiver.url}/library-${i}`;
      const res = await create(adminToken, { url, events: ["user.created"], ...(secret ? { secret } : {}) });
      expect(res.status, res.text).toBe(201);
      expect(res.body.status).toBe("active");
      const verifier = new Webhook(res.body.secret);
      const before = receiver.requests.length;
      const added = await call(usersRoute.POST, {
        method: "POST",
        path: "/v1/users",
        token: adminToken,
        body: { name: "Library Check", email: `library-${randomBytes(4).toString("hex")}@example.com`, password: "a long enough password 123", role: "agent" },
      });
      expect(added.status, added.text).toBe(201);
      await drain();
      const delivery = receiver.requests
        .slice(before)
        .find((request) => request.path.endsWith(`/library-${i}`) && request.headers["x-service-event-type"] === "user.created");
      expect(delivery, "the user.created delivery").toBeDefined();
      // Exactly what a receiver does: the raw body and the headers as received.
      const payload = verifier.verify(delivery!.raw, delivery!.headers as Record<string, string>) as { type: string; data: { user: { name: string } } };
      expect(payload).toMatchObject({ type: "user.created", data: { user: { name: "Library Check" } } });
      // A body changed on the way fails.
      expect(() => verifier.verify(delivery!.raw.replace("Library Check", "Library Chekc"), delivery!.headers as Record<string, string>)).toThrow();
    }
  });

  it.each([
    ["a wrong body", () => ({ status: 200, body: "not the challenge" }), /not exactly the challenge/],
    ["a 404", () => ({ status: 404, body: "nope" }), /answered 404/],
    ["a redirect", () => ({ status: 302, headers: { Location: "http://127.0.0.1:1/" } }), /redirect/],
    ["the challenge after the timeout", (r: any) => ({ status: 200, body: r.json.data.challenge, delayMs: 1500 }), /did not answer within 0.5 s/],
  ])("keeps the webhook as verification_failed with the reason on %s", async (_name, responder, reason) => {
    const restore = setEnv({ WEBHOOK_TIMEOUT_MS: "500" });
    try {
      const { adminToken } = await createTestAccount();
      receiver.challenge(responder as never);
      const res = await create(adminToken, { url: receiver.url, events: ["message.received"] });
      expect(res.status).toBe(201);
      expect(res.body.status).toBe("verification_failed");
      expect(res.body.status_reason).toMatch(reason);
      expect(res.body.secret).toMatch(/^whsec_/);
    } finally {
      restore();
    }
  });

  it("answers the challenge within 10 s by default (the timeout is min(10 s, WEBHOOK_TIMEOUT_MS))", async () => {
    const restore = setEnv({ WEBHOOK_TIMEOUT_MS: "30000" });
    try {
      const { adminToken } = await createTestAccount();
      receiver.challenge((r) => ({ status: 200, body: r.json.data.challenge, delayMs: 300 }));
      const res = await create(adminToken, { url: receiver.url, events: ["message.received"] });
      expect(res.body.status).toBe("active");
    } finally {
      restore();
    }
  });

  it("re-runs the challenge on POST /verify", async () => {
    const { adminToken } = await createTestAccount();
    receiver.challenge(() => ({ status: 500 }));
    const res = await create(adminToken, { url: receiver.url, events: ["message.received"] });
    expect(res.body.status).toBe("verification_failed");
    receiver.challenge((r) => ({ status: 200, body: r.json.data.challenge }));
    const again = await call(verify.POST, { method: "POST", path: `/v1/webhooks/${res.body.id}/verify`, token: adminToken, params: { id: res.body.id } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, status: "active", status_reason: null });
    expect(again.body).not.toHaveProperty("secret");
    // Each verification is a new webhook.verified event, logged as a delivery of this webhook only.
    const log = await call(logs.GET, { path: `/v1/webhooks/${res.body.id}/logs`, token: adminToken, params: { id: res.body.id } });
    expect(log.body.data.map((a: any) => [a.event_type, a.status])).toEqual([
      ["webhook.verified", "succeeded"],
      ["webhook.verified", "failed"],
    ]);
    expect(new Set(log.body.data.map((a: any) => a.event_id)).size).toBe(2);
  });

  it("honours Idempotency-Key: a retry returns the first response and creates nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const body = { url: receiver.url, events: ["user.created"] };
    const first = await create(adminToken, body, { "idempotency-key": "create-hook-1" });
    const second = await create(adminToken, body, { "idempotency-key": "create-hook-1" });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.secret).toMatch(/^whsec_/);
    expect(await webhookCount(account.id)).toBe(1);
    // The replay store keeps the answer without the secret.
    const stored = await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.accountId, account.id));
    expect(JSON.stringify(stored)).not.toContain(first.body.secret);
    const other = await create(adminToken, { ...body, events: ["user.deleted"] }, { "idempotency-key": "create-hook-1" });
    expect(other.status).toBe(409);
    expect(await webhookCount(account.id)).toBe(1);
  });

  it("stores the secret sealed: not in clear, bound to its webhook, and still signing deliveries", async () => {
    const { adminToken } = await createTestAccount();
    const chosen = "whsec_YS1jaG9zZW4tc2VjcmV0LWZvci1zZWFsaW5nLTAxMjM=";
    const res = await create(adminToken, { url: receiver.url, events: ["user.created"], secret: chosen });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("active");
    const [row] = await getDb().select().from(webhooks).where(eq(webhooks.id, res.body.id));
    expect(row.secret).not.toContain(chosen);
    expect(row.secret).toMatch(/^sealed:/);
    // The challenge went out signed with the secret in clear.
    const challenge = receiver.requests.filter((r) => r.json?.type === "webhook.verified").at(-1)!;
    expect(verifyDelivery(challenge, chosen)).toEqual([]);

    // Copied onto another webhook the sealed value does not open: the attempt fails, nothing is sent unsigned.
    const other = await create(adminToken, { url: receiver.url, events: ["user.created"] });
    await getDb().update(webhooks).set({ secret: row.secret }).where(eq(webhooks.id, other.body.id));
    const before = receiver.requests.length;
    const again = await call(verify.POST, { method: "POST", path: "/", token: adminToken, params: { id: other.body.id } });
    expect(again.body).toMatchObject({ status: "verification_failed", status_reason: expect.stringContaining("signing secret cannot be read") });
    expect(receiver.requests.length).toBe(before);
  });

  it("refuses the 21st webhook of an account with 409", async () => {
    const { account, adminToken } = await createTestAccount();
    for (let i = 0; i < 20; i++) {
      const res = await create(adminToken, { url: `${receiver.url}/${i}`, events: ["message.received"] });
      expect(res.status).toBe(201);
    }
    const res = await create(adminToken, { url: receiver.url, events: ["message.received"] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("conflict");
    expect(await webhookCount(account.id)).toBe(20);
  });

  describe("bad input: a 400 naming the field, and nothing created", () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["missing url", { events: ["message.received"] }, "url"],
      ["url not a string", { url: 42, events: ["message.received"] }, "url"],
      ["url not absolute", { url: "/hooks", events: ["message.received"] }, "url"],
      ["ftp url", { url: "ftp://example.com/x", events: ["message.received"] }, "url"],
      ["user info in url", { url: "https://user:pw@example.com/x", events: ["message.received"] }, "url"],
      ["missing events", { url: "https://example.com/x" }, "events"],
      ["empty events", { url: "https://example.com/x", events: [] }, "events"],
      ["unknown event type", { url: "https://example.com/x", events: ["message.received", "message.exploded"] }, "events.1"],
      ["webhook.verified subscription", { url: "https://example.com/x", events: ["webhook.verified"] }, "events.0"],
      ['"*" with other types', { url: "https://example.com/x", events: ["*", "message.received"] }, "events.0"],
      ["events not a list", { url: "https://example.com/x", events: "message.received" }, "events"],
      ["secret of 15 characters", { url: "https://example.com/x", events: ["*"], secret: "x".repeat(15) }, "secret"],
      ["secret of 129 characters", { url: "https://example.com/x", events: ["*"], secret: "x".repeat(129) }, "secret"],
      ["secret not a string", { url: "https://example.com/x", events: ["*"], secret: 1234567890123456 }, "secret"],
      ["secret without whsec_", { url: "https://example.com/x", events: ["*"], secret: "bXktb3duLXNlY3JldC0wMTIzNDU2Nzg5" }, "secret"],
      ["secret not base64 after whsec_", { url: "https://example.com/x", events: ["*"], secret: "whsec_my-own-secret-0123456789" }, "secret"],
      ["secret of plain words", { url: "https://example.com/x", events: ["*"], secret: "my-own-secret-0123456789" }, "secret"],
    ];
    it.each(cases)("%s", async (_name, body, path) => {
      const { account, adminToken } = await createTestAccount();
      const before = receiver.requests.length;
      const res = await create(adminToken, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
      expect(await webhookCount(account.id)).toBe(0);
      expect(receiver.requests.length).toBe(before);
    });

    it("accepts the shortest and longest whsec_ secrets within 16..128 characters (18 and 126)", async () => {
      const { adminToken } = await createTestAccount();
      expect((await create(adminToken, { url: receiver.url, events: ["*"], secret: `whsec_${"s".repeat(12)}` })).status).toBe(201);
      expect((await create(adminToken, { url: receiver.url, events: ["*"], secret: `whsec_${"s".repeat(120)}` })).status).toBe(201);
    });

    it("refuses a chosen secret a Standard Webhooks library cannot use, offering a generated one", async () => {
      const { account, adminToken } = await createTestAccount();
      const res = await create(adminToken, { url: receiver.url, events: ["*"], secret: "my-own-secret-0123456789" });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
      expect(res.body.error.details).toEqual([
        { path: "secret", message: expect.stringMatching(/whsec_.*base64.*leave it empty to get a generated one/), code: "invalid_format", params: { origin: "string", format: "regex" } },
      ]);
      expect(await webhookCount(account.id)).toBe(0);
    });
  });
});

describe("the URL policy at registration (WEBHOOK_ALLOW_INSECURE_TARGETS unset)", () => {
  let restore: () => void;
  beforeAll(() => {
    restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: undefined, WEBHOOK_TIMEOUT_MS: "300" });
  });
  afterAll(() => restore());

  const refused = [
    "http://example.com/hook",
    "http://127.0.0.1:8080/hook",
    "https://127.0.0.1/hook",
    "https://127.1.2.3/hook",
    "https://localhost/hook",
    "https://10.0.0.5/hook",
    "https://172.16.0.1/hook",
    "https://172.31.255.254/hook",
    "https://192.168.1.10/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://169.254.1.1/hook",
    "https://100.64.0.1/hook",
    "https://100.127.255.254/hook",
    "https://0.0.0.0/hook",
    "https://0.1.2.3/hook",
    "https://224.0.0.1/hook",
    "https://255.255.255.255/hook",
    "https://2130706433/hook",
    "https://0x7f000001/hook",
    "https://017700000001/hook",
    "https://[::1]/hook",
    "https://[::]/hook",
    "https://[fc00::1]/hook",
    "https://[fd00:ec2::254]/hook",
    "https://[fe80::1]/hook",
    "https://[ff02::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:7f00:1]/hook",
    "https://[::ffff:10.0.0.1]/hook",
    "https://[::ffff:169.254.169.254]/hook",
    "https://[64:ff9b::a9fe:a9fe]/hook",
  ];

  it.each(refused)("refuses %s with 400 naming url and creates nothing", async (url) => {
    const { account, adminToken } = await createTestAccount();
    const res = await create(adminToken, { url, events: ["message.received"] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details).toEqual([{ path: "url", message: expect.any(String) }]);
    expect(await webhookCount(account.id)).toBe(0);
  });

  it("refuses the local test receiver (http and loopback) without the flag", async () => {
    const { account, adminToken } = await createTestAccount();
    const before = receiver.requests.length;
    const res = await create(adminToken, { url: receiver.url, events: ["*"] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/https/);
    const https = await create(adminToken, { url: receiver.url.replace("http:", "https:"), events: ["*"] });
    expect(https.status).toBe(400);
    expect(https.body.error.message).toMatch(/public internet/);
    expect(receiver.requests.length).toBe(before);
    expect(await webhookCount(account.id)).toBe(0);
  });

  it("accepts a public https address (the challenge then fails here, offline)", async () => {
    const { adminToken } = await createTestAccount();
    const res = await create(adminToken, { url: "https://8.8.8.8/hook", events: ["message.received"] });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("verification_failed");
  });
});

describe("GET, PATCH, DELETE /v1/webhooks/{id}", () => {
  it("changes events, disables, and re-verifies when re-enabled or pointed at a new URL", async () => {
    const { adminToken } = await createTestAccount();
    const created = (await create(adminToken, { url: receiver.url, events: ["message.received"] })).body;
    const patch = (body: unknown) => call(item.PATCH, { method: "PATCH", path: `/v1/webhooks/${created.id}`, token: adminToken, params: { id: created.id }, body });

    const events = await patch({ events: ["message.sent", "message.sent", "message.read"] });
    expect(events.status).toBe(200);
    expect(events.body).toMatchObject({ events: ["message.sent", "message.read"], status: "active" });

    const before = receiver.requests.length;
    const disabled = await patch({ status: "disabled" });
    expect(disabled.body).toMatchObject({ status: "disabled", status_reason: expect.stringMatching(/Disabled by/) });
    expect(receiver.requests.length).toBe(before);

    receiver.challenge(() => ({ status: 200, body: "wrong" }));
    const failed = await patch({ status: "active" });
    expect(failed.body.status).toBe("verification_failed");
    expect(receiver.requests.length).toBe(before + 1);

    receiver.challenge((r) => ({ status: 200, body: r.json.data.challenge }));
    const enabled = await patch({ status: "active" });
    expect(enabled.body).toMatchObject({ status: "active", status_reason: null });

    const other = await startReceiver({ path: "/other" });
    try {
      const moved = await patch({ url: other.url });
      expect(moved.body).toMatchObject({ url: other.url, status: "active" });
      expect(other.requests.map((r) => r.json.type)).toEqual(["webhook.verified"]);
    } finally {
      await other.close();
    }

    const empty = await patch({});
    expect(empty.status).toBe(400);
    const bad = await patch({ status: "verification_failed" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("status");
  });

  it("refuses a private URL in PATCH without the flag and changes nothing", async () => {
    const { adminToken } = await createTestAccount();
    const created = (await create(adminToken, { url: receiver.url, events: ["message.received"] })).body;
    const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: undefined });
    try {
      const res = await call(item.PATCH, { method: "PATCH", path: `/v1/webhooks/${created.id}`, token: adminToken, params: { id: created.id }, body: { url: "https://10.1.2.3/x", events: ["*"] } });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("url");
    } finally {
      restore();
    }
    const got = await call(item.GET, { path: `/v1/webhooks/${created.id}`, token: adminToken, params: { id: created.id } });
    expect(got.body).toMatchObject({ url: receiver.url, events: ["message.received"] });
  });

  it("deletes a webhook with its deliveries and their attempts", async () => {
    const { adminToken } = await createTestAccount();
    const created = (await create(adminToken, { url: receiver.url, events: ["message.received"] })).body;
    // The verification challenge is a delivery with one attempt.
    expect(await getDb().select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, created.id))).toHaveLength(1);
    const res = await call(item.DELETE, { method: "DELETE", path: `/v1/webhooks/${created.id}`, token: adminToken, params: { id: created.id } });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await call(item.GET, { path: `/v1/webhooks/${created.id}`, token: adminToken, params: { id: created.id } })).status).toBe(404);
    expect(await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, created.id))).toEqual([]);
    expect(await getDb().select().from(webhookAttempts).where(eq(webhookAttempts.webhookId, created.id))).toEqual([]);
    expect((await call(item.DELETE, { method: "DELETE", path: `/v1/webhooks/${created.id}`, token: adminToken, params: { id: created.id } })).status).toBe(404);
  });

  it("answers 404 for every id of another account, and changes nothing there", async () => {
    const owner = await createTestAccount();
    const stranger = await createTestAccount();
    const created = (await create(owner.adminToken, { url: receiver.url, events: ["message.received"] })).body;
    const [delivery] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, created.id));
    const t = stranger.adminToken;
    const p = { id: created.id };
    const path = `/v1/webhooks/${created.id}`;
    const results = await Promise.all([
      call(item.GET, { path, token: t, params: p }),
      call(item.PATCH, { method: "PATCH", path, token: t, params: p, body: { status: "disabled" } }),
      call(item.DELETE, { method: "DELETE", path, token: t, params: p }),
      call(verify.POST, { method: "POST", path: `${path}/verify`, token: t, params: p }),
      call(logs.GET, { path: `${path}/logs`, token: t, params: p }),
      call(stats.GET, { path: `${path}/stats`, token: t, params: p }),
      call(retry.POST, { method: "POST", path: `${path}/deliveries/${delivery.id}/retry`, token: t, params: { id: created.id, delivery_id: delivery.id } }),
    ]);
    for (const res of results) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    const got = await call(item.GET, { path, token: owner.adminToken, params: p });
    expect(got.body.status).toBe("active");
  });

  it("requires the webhooks scopes and the admin role", async () => {
    const { account } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const list = await call(collection.GET, { path: "/v1/webhooks", token: agent.token });
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe("forbidden");
    const post = await create(agent.token, { url: receiver.url, events: ["*"] });
    expect(post.status).toBe(403);
    expect(await webhookCount(account.id)).toBe(0);
  });

  it("answers 405 with Allow for other methods", async () => {
    const { adminToken } = await createTestAccount();
    const res = await call(collection.PUT, { method: "PUT", path: "/v1/webhooks", token: adminToken, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
  });
});
