import { createECDH, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { importJWK, jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as subscriptionsRoute from "@/app/v1/push/subscriptions/route";
import * as assignRoute from "@/app/v1/conversations/[id]/assign/route";
import * as notesRoute from "@/app/v1/conversations/[id]/notes/route";
import * as conversationRoute from "@/app/v1/conversations/[id]/route";
import * as slaPoliciesRoute from "@/app/v1/sla-policies/route";
import * as teamsRoute from "@/app/v1/teams/route";
import { getDb } from "@/db";
import { jobs, pushSubscriptions } from "@/db/schema";
import { createApiToken } from "@/lib/auth/api-tokens";
import { receiveInboundMessage } from "@/lib/messages/receive-inbound";
import { saveNotificationPreferences } from "@/lib/push/preferences";
import { defaultPreferences } from "@/lib/push/schemas";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { call } from "@/tests/support/api";
import { setEnv } from "@/tests/support/env-vars";
import { addTestUser, bearerContext, createTestAccount } from "@/tests/support/fixtures";
import { nextPhone } from "@/tests/support/messaging";
import { drain } from "@/tests/support/webhooks";
import { systemContext, verbContext } from "@/lib/server/context";

// A VAPID pair made for this test (what `web-push generate-vapid-keys` prints).
const vapid = createECDH("prime256v1");
vapid.generateKeys();
const VAPID_PUBLIC_KEY = vapid.getPublicKey().toString("base64url");
const VAPID_PRIVATE_KEY = vapid.getPrivateKey().toString("base64url");

/** A browser's side of a subscription: its P-256 key pair and 16-byte auth secret (RFC 8291). */
function browserKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, json: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
}

/** RFC 8291 decryption by hand (aes128gcm, one record), independent of the sender's library. */
function decryptPush(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end], "the last record ends with the 0x02 delimiter").toBe(2);
  return padded.subarray(0, end).toString("utf8");
}

type Received = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };

/** A push service on loopback: records every push and answers with the status set for its path. */
async function startPushService() {
  const received: Received[] = [];
  const answers = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(req.url ?? "") ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, received, answers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let service: Awaited<ReturnType<typeof startPushService>>;
let restoreEnv: () => void;

beforeAll(async () => {
  service = await startPushService();
  restoreEnv = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "true", VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: "mailto:ops@chorus.example" });
});
afterAll(async () => {
  restoreEnv();
  await service.close();
});
beforeEach(() => {
  service.received.length = 0;
  resetRateLimiters();
});

let seq = 0;
async function subscribe(token: string, keys = browserKeys(), path = `/push/${++seq}`) {
  const endpoint = `${service.base}${path}`;
  const res = await call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", token, body: { endpoint, expirationTime: null, keys: keys.json } });
  return { res, endpoint, keys, path };
}

async function customerWrites(accountId: string, text: string, from = nextPhone()) {
  const result = await receiveInboundMessage(systemContext(), { accountId, inbound: { networkMessageId: `wamid.push-${Date.now()}-${++seq}`, from, name: "Marta Ruiz", type: "text", text } });
  if (!("message" in result) || !result.message) throw new Error("inbound message not stored");
  return { conversationId: result.message.conversation_id as string, from };
}

function pushesTo(path: string) {
  return service.received.filter((r) => r.path === path);
}

describe("Web Push with VAPID, straight from the server", () => {
  it("pushes a new customer message to every teammate's device, encrypted (RFC 8291) and signed (VAPID); the payload opens the conversation", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const mine = await subscribe(adminToken);
    expect(mine.res.status).toBe(201);
    expect(mine.res.body).toMatchObject({ id: expect.stringMatching(/^psub_/), endpoint: mine.endpoint });
    expect(mine.res.text).not.toContain(VAPID_PRIVATE_KEY);
    const theirs = await subscribe(agent.token);

    const { conversationId } = await customerWrites(account.id, "¿Tenéis la monstera grande?");
    await drain();

    for (const device of [mine, theirs]) {
      const [push] = pushesTo(device.path);
      expect(push, "one push per device").toBeDefined();
      expect(pushesTo(device.path)).toHaveLength(1);
      expect(push.headers["content-encoding"]).toBe("aes128gcm");
      expect(Number(push.headers.ttl)).toBeGreaterThan(0);
      expect(push.headers.urgency).toBe("high");
      // VAPID (RFC 8292): a JWT for the push service's origin, signed with the server's key.
      const match = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(String(push.headers.authorization));
      expect(match, String(push.headers.authorization)).not.toBeNull();
      expect(match![2]).toBe(VAPID_PUBLIC_KEY);
      const point = Buffer.from(VAPID_PUBLIC_KEY, "base64url");
      const key = await importJWK({ kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, "ES256");
      const { payload: claims } = await jwtVerify(match![1], key, { audience: service.base });
      expect(claims.sub).toBe("mailto:ops@chorus.example");

      const payload = JSON.parse(decryptPush(push.body, device.keys.ecdh, device.keys.auth));
      expect(payload).toMatchObject({ title: "Marta Ruiz", body: "¿Tenéis la monstera grande?", url: `/inbox/${conversationId}`, type: "new_message" });
    }
    const [row] = await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, mine.endpoint));
    expect(row.lastPushedAt).not.toBeNull();
  });

  it("a message in a conversation assigned to someone else is not pushed to me; the assignee gets it", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const mine = await subscribe(adminToken);
    const theirs = await subscribe(agent.token);
    const first = await customerWrites(account.id, "hola");
    expect((await call(assignRoute.POST, { method: "POST", path: "/", token: adminToken, body: { user_id: agent.user.id }, params: { id: first.conversationId } })).status).toBe(200);
    await drain();
    service.received.length = 0;

    await customerWrites(account.id, "¿sigue ahí?", first.from);
    await drain();
    expect(pushesTo(mine.path)).toHaveLength(0);
    expect(pushesTo(theirs.path)).toHaveLength(1);
    expect(JSON.parse(decryptPush(pushesTo(theirs.path)[0].body, theirs.keys.ecdh, theirs.keys.auth)).body).toBe("¿sigue ahí?");
  });

  it("an assignment by someone else and a mention are pushed to that person only; my own acts are not pushed to me", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const { conversationId } = await customerWrites(account.id, "hi");
    const mine = await subscribe(adminToken);
    const theirs = await subscribe(agent.token);

    expect((await call(assignRoute.POST, { method: "POST", path: "/", token: adminToken, body: { user_id: agent.user.id }, params: { id: conversationId } })).status).toBe(200);
    await drain();
    expect(pushesTo(mine.path)).toHaveLength(0);
    const assigned = JSON.parse(decryptPush(pushesTo(theirs.path)[0].body, theirs.keys.ecdh, theirs.keys.auth));
    expect(assigned).toMatchObject({ type: "assignment", url: `/inbox/${conversationId}` });
    service.received.length = 0;

    const note = await call(notesRoute.POST, { method: "POST", path: "/", token: agent.token, body: { text: "@Ada can you check?", mentions: [admin.id] }, params: { id: conversationId } });
    expect(note.status).toBe(201);
    await drain();
    expect(pushesTo(theirs.path)).toHaveLength(0);
    const mention = JSON.parse(decryptPush(pushesTo(mine.path)[0].body, mine.keys.ecdh, mine.keys.auth));
    expect(mention).toMatchObject({ type: "mention", url: `/inbox/${conversationId}` });
    service.received.length = 0;

    // Taking a conversation yourself is not news to you.
    const second = await customerWrites(account.id, "otra", nextPhone());
    await drain();
    service.received.length = 0;
    expect((await call(assignRoute.POST, { method: "POST", path: "/", token: agent.token, body: { user_id: agent.user.id }, params: { id: second.conversationId } })).status).toBe(200);
    await drain();
    expect(pushesTo(theirs.path)).toHaveLength(0);
  });

  it("a subscription its push service answers 410 (or 404) is deleted; a 500 is retried", async () => {
    const { account, adminToken } = await createTestAccount();
    const gone = await subscribe(adminToken);
    const missing = await subscribe(adminToken);
    const flaky = await subscribe(adminToken);
    service.answers.set(gone.path, 410);
    service.answers.set(missing.path, 404);
    service.answers.set(flaky.path, 500);
    await customerWrites(account.id, "hello?");
    await drain();
    const left = await getDb().select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions).where(eq(pushSubscriptions.accountId, account.id));
    expect(left.map((r) => r.endpoint)).toEqual([flaky.endpoint]);
    const [retry] = await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.id), eq(jobs.kind, "push.send"), eq(jobs.status, "pending")));
    expect(retry?.lastError).toMatch(/500/);
    service.answers.delete(flaky.path);
    await drain(3_600_000);
    expect(pushesTo(flaky.path).length).toBeGreaterThanOrEqual(2);
    expect((await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.id), eq(jobs.kind, "push.send"), eq(jobs.status, "pending")))).length).toBe(0);
  });

  it("choices and quiet hours hold pushes back", async () => {
    const { account, admin, adminToken } = await createTestAccount();
    const device = await subscribe(adminToken);
    const ctx = verbContext({ accountId: account.id, user: admin });
    await saveNotificationPreferences({ ctx, input: { ...defaultPreferences, new_messages: false } });
    await customerWrites(account.id, "one");
    await drain();
    expect(pushesTo(device.path)).toHaveLength(0);

    const now = new Date();
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    // Quiet from a minute ago until two minutes from now (crossing midnight when it falls there).
    await saveNotificationPreferences({ ctx, input: { ...defaultPreferences, quiet_start: hhmm(new Date(now.getTime() - 60_000)), quiet_end: hhmm(new Date(now.getTime() + 120_000)), time_zone: "UTC" } });
    await customerWrites(account.id, "two");
    await drain();
    expect(pushesTo(device.path)).toHaveLength(0);

    await saveNotificationPreferences({ ctx, input: defaultPreferences });
    await customerWrites(account.id, "three");
    await drain();
    expect(pushesTo(device.path)).toHaveLength(1);
  });

  it("an account without devices writes no push job at all", async () => {
    const { account } = await createTestAccount();
    await customerWrites(account.id, "nobody listens");
    const rows = await getDb().select().from(jobs).where(and(eq(jobs.accountId, account.id), eq(jobs.kind, "push.notify")));
    expect(rows).toHaveLength(0);
  });
});

describe("SLA alerts by push", () => {
  const MINUTE = 60_000;
  const slaTypes = (device: { path: string; keys: ReturnType<typeof browserKeys> }) =>
    pushesTo(device.path)
      .map((push) => JSON.parse(decryptPush(push.body, device.keys.ecdh, device.keys.auth)) as { type: string; url: string; title: string })
      .filter((p) => p.type.startsWith("sla_"));

  it("an unassigned conversation's warning and breach reach the admins and its team's members, not every teammate; an assigned one's, the assignee only", async () => {
    const { account, adminToken } = await createTestAccount();
    const inTeam = await addTestUser(account.id, "agent", "Sam Sales");
    const outside = await addTestUser(account.id, "agent", "Olga Other");
    const policy = await call(slaPoliciesRoute.POST, { method: "POST", path: "/v1/sla-policies", token: adminToken, body: { name: "15 minutes", first_response_s: 900, default: true } });
    expect(policy.status, policy.text).toBe(201);
    const team = await call(teamsRoute.POST, { method: "POST", path: "/v1/teams", token: adminToken, body: { name: "Sales", members: [inTeam.user.id] } });
    expect(team.status, team.text).toBe(201);
    const admin = await subscribe(adminToken);
    const member = await subscribe(inTeam.token);
    const other = await subscribe(outside.token);

    const unassigned = await customerWrites(account.id, "How much is the monstera?");
    const forSales = await customerWrites(account.id, "Price for 20 ferns?");
    const patched = await call(conversationRoute.PATCH, { method: "PATCH", path: "/", token: adminToken, body: { team_id: team.body.id }, params: { id: forSales.conversationId } });
    expect(patched.status, patched.text).toBe(200);
    const assigned = await customerWrites(account.id, "Is it in stock?");
    expect((await call(assignRoute.POST, { method: "POST", path: "/", token: adminToken, body: { user_id: outside.user.id }, params: { id: assigned.conversationId } })).status).toBe(200);
    await drain();
    service.received.length = 0;

    await drain(13 * MINUTE);
    await drain(16 * MINUTE);
    const alerts = (device: Parameters<typeof slaTypes>[0]) => slaTypes(device).map((p) => `${p.type} ${p.url.replace("/inbox/", "")}`).sort();
    const both = (id: string) => [`sla_breached ${id}`, `sla_warning ${id}`];
    expect(alerts(admin)).toEqual([...both(unassigned.conversationId), ...both(forSales.conversationId)].sort());
    expect(alerts(member)).toEqual(both(forSales.conversationId));
    expect(alerts(other)).toEqual(both(assigned.conversationId));
    const missed = slaTypes(other).find((p) => p.type === "sla_breached");
    expect(missed?.title).toMatch(/^Reply time missed · /);
  });
});

describe("POST/DELETE /v1/push/subscriptions", () => {
  it("refuses what is not a browser's subscription, an endpoint the URL policy refuses, and tokens that are not sessions; changes nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const keys = browserKeys().json;
    const post = (body: unknown, token = adminToken) => call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", token, body });
    for (const body of [{}, { endpoint: "https://push.example/x" }, { endpoint: "https://push.example/x", keys: { p256dh: "!!", auth: keys.auth } }, { endpoint: 7, keys }, []]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_error");
    }
    const raw = await call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", token: adminToken, rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(raw.status).toBe(400);

    const restore = setEnv({ WEBHOOK_ALLOW_INSECURE_TARGETS: "false" });
    try {
      for (const endpoint of ["http://push.example/x", "https://127.0.0.1/x", "https://10.0.0.7/x", "https://[::1]/x"]) {
        const res = await post({ endpoint, keys });
        expect(res.status, endpoint).toBe(400);
        expect(res.body.error.details[0].path).toBe("endpoint");
      }
    } finally {
      restore();
    }

    const { token: apiToken } = await createApiToken({ ctx: await bearerContext(adminToken), input: { name: "ci", permissions: ["conversations:read"], expires_at: new Date(Date.now() + 86_400_000) } });
    expect((await post({ endpoint: `${service.base}/push/api-token`, keys }, apiToken)).status).toBe(403);
    expect((await call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", body: { endpoint: `${service.base}/push/anon`, keys } })).status).toBe(401);
    expect(await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.accountId, account.id))).toEqual([]);
  });

  it("registering an endpoint another account (or teammate) registered never takes it from them", async () => {
    const first = await createTestAccount();
    const other = await createTestAccount();
    const mine = await subscribe(first.adminToken);
    const rowsOf = (accountId: string) => getDb().select().from(pushSubscriptions).where(and(eq(pushSubscriptions.accountId, accountId), eq(pushSubscriptions.endpoint, mine.endpoint)));
    const before = await rowsOf(first.account.id);
    expect(before).toHaveLength(1);

    // Someone in another account who learned the endpoint registers it with keys of their own.
    const theirs = browserKeys();
    const claim = await call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", token: other.adminToken, body: { endpoint: mine.endpoint, expirationTime: null, keys: theirs.json } });
    expect(claim.status).toBe(201);
    const after = await rowsOf(first.account.id);
    expect(after).toEqual(before);
    expect((await rowsOf(other.account.id)).map((r) => r.p256dh)).toEqual([theirs.json.p256dh]);

    // The same within an account: a teammate's claim with other keys leaves my row as it was.
    const teammate = await addTestUser(first.account.id, "agent");
    const teammateClaim = await call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", token: teammate.token, body: { endpoint: mine.endpoint, expirationTime: null, keys: browserKeys().json } });
    expect(teammateClaim.status).toBe(201);
    expect((await rowsOf(first.account.id)).filter((r) => r.userId === before[0].userId)).toEqual(before);

    // My pushes still reach my browser, encrypted for my keys.
    await customerWrites(first.account.id, "Is my order ready?");
    await drain();
    const pushed = pushesTo(mine.path);
    expect(pushed.length).toBeGreaterThan(0);
    const opens = (body: Buffer) => {
      try {
        return decryptPush(body, mine.keys.ecdh, mine.keys.auth).includes("order ready");
      } catch {
        return false;
      }
    };
    expect(pushed.some((p) => opens(p.body))).toBe(true);

    // The same browser subscription (same keys) signed into by a teammate moves to them.
    const sameBrowser = await call(subscriptionsRoute.POST, { method: "POST", path: "/v1/push/subscriptions", token: teammate.token, body: { endpoint: mine.endpoint, expirationTime: null, keys: mine.keys.json } });
    expect(sameBrowser.status).toBe(201);
    expect((await rowsOf(first.account.id)).map((r) => r.userId)).toEqual([teammate.user.id]);
  });

  it("deletes only your own subscription", async () => {
    const { account, adminToken } = await createTestAccount();
    const agent = await addTestUser(account.id, "agent");
    const mine = await subscribe(adminToken);
    const del = (endpoint: string, token: string) => call(subscriptionsRoute.DELETE, { method: "DELETE", path: "/v1/push/subscriptions", token, body: { endpoint } });
    expect((await del(mine.endpoint, agent.token)).status).toBe(404);
    expect((await del(mine.endpoint, adminToken)).status).toBe(204);
    expect((await del(mine.endpoint, adminToken)).status).toBe(404);
    expect(await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.accountId, account.id))).toEqual([]);
  });
});
