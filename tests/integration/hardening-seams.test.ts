import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { receiveInboundMessage } from "@/lib/messages/receive-inbound";
import { resetRateLimiters } from "@/lib/platform/rate-limit";
import { createTestAccount } from "@/tests/support/fixtures";
import { countRows, nextPhone, seedConversation } from "@/tests/support/messaging";
import { createDispatchFetch } from "@/tests/support/route-table";
import { systemContext } from "@/lib/server/context";

/**
 * What an outside client found by sending raw requests: parsing, content types, search text,
 * idempotent replays, cursors and the scope challenge. Each request is a plain HTTP request to
 * the real route handlers, as a client sends it.
 */

const dispatch = createDispatchFetch(["v1", "plant-store"]);

async function send(method: string, path: string, { token, body, headers = {} }: { token?: string; body?: BodyInit; headers?: Record<string, string> } = {}) {
  const res = await dispatch(
    new Request(`http://localhost${path}`, {
      method,
      body,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    }),
  );
  const text = await res.text();
  let json: any = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const JSON_TYPE = { "content-type": "application/json" };

async function scopedToken(adminToken: string, permissions: string[]) {
  const res = await send("POST", "/v1/auth/tokens", {
    token: adminToken,
    headers: JSON_TYPE,
    body: JSON.stringify({ name: `only ${permissions.join(" ")}`, permissions, expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString() }),
  });
  expect(res.status, res.text).toBe(201);
  return res.json.token as string;
}

beforeEach(() => resetRateLimiters());
afterAll(() => resetRateLimiters());

describe("JSON nesting", () => {
  it("answers a body nested 5,000 levels deep with a 400 and the error body, and changes nothing", async () => {
    const { account, adminToken } = await createTestAccount();
    const before = await countRows(account.id);
    const deep = `{"to":"${nextPhone()}","type":"text","text":"hi","x":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    const res = await send("POST", "/v1/messages", { token: adminToken, headers: JSON_TYPE, body: deep });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toEqual({
      error: { code: "invalid_json", message: expect.stringMatching(/deeper than 64/), details: [{ path: "body", message: expect.any(String) }] },
      request_id: res.headers.get("x-request-id"),
    });
    expect(await countRows(account.id)).toEqual(before);
  });

  it("accepts 64 levels and refuses 65, counting brackets inside strings as text", async () => {
    const { adminToken } = await createTestAccount();
    const nested = (levels: number) => `${"[".repeat(levels - 1)}"[[[[{{{{"${"]".repeat(levels - 1)}`;
    const body = (levels: number) => `{"to":"${nextPhone()}","type":"text","text":"hi","x":${nested(levels)}}`;
    // 64 levels in all: the outer object and 63 arrays (an unknown field is ignored).
    const ok = await send("POST", "/v1/messages", { token: adminToken, headers: JSON_TYPE, body: body(64) });
    expect(ok.status, ok.text).toBe(201);
    const deep = await send("POST", "/v1/messages", { token: adminToken, headers: JSON_TYPE, body: body(65) });
    expect(deep.status).toBe(400);
    expect(deep.json.error.code).toBe("invalid_json");
  });

  it("is refused by the plant store too, with its own error body", async () => {
    const { adminToken } = await createTestAccount();
    const res = await send("POST", "/plant-store/plants", { token: adminToken, headers: JSON_TYPE, body: `{"name":"Fern","x":${"{\"a\":".repeat(5_000)}1${"}".repeat(5_000)}}` });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 400, message: expect.stringMatching(/deeper than 64/) });
  });
});

describe("content type of a JSON route", () => {
  it("is a 415 unsupported_media_type when the body is sent as something else, and nothing is sent", async () => {
    const { account, adminToken } = await createTestAccount();
    const before = await countRows(account.id);
    const body = JSON.stringify({ to: nextPhone(), type: "text", text: "hi" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"]) {
      const res = await send("POST", "/v1/messages", { token: adminToken, headers: { "content-type": type }, body });
      expect(res.status, type).toBe(415);
      expect(res.json).toEqual({ error: { code: "unsupported_media_type", message: expect.stringContaining("application/json") }, request_id: res.headers.get("x-request-id") });
    }
    const none = await send("POST", "/v1/messages", { token: adminToken, body: new TextEncoder().encode(body) });
    expect(none.status).toBe(415);
    expect(await countRows(account.id)).toEqual(before);
    // application/json with a charset, and a +json type, are JSON.
    for (const type of ["application/json; charset=utf-8", "application/merge-patch+json"]) {
      const res = await send("POST", "/v1/messages", { token: adminToken, headers: { "content-type": type }, body: JSON.stringify({ to: nextPhone(), type: "text", text: "hi" }) });
      expect(res.status, type).toBe(201);
    }
  });

  it("is a 415 from the plant store too", async () => {
    const { adminToken } = await createTestAccount();
    const res = await send("POST", "/plant-store/plants", { token: adminToken, headers: { "content-type": "text/plain" }, body: '{"name":"Fern"}' });
    expect(res.status).toBe(415);
    expect(res.json.error).toBe(415);
  });
});

describe("search text", () => {
  it("takes any q of 2 to 200 characters: fractions, enclosed digits, query operators, quotes, backslashes", async () => {
    const { account, adminToken } = await createTestAccount();
    const received = await receiveInboundMessage(systemContext(), {
      accountId: account.id,
      inbound: { networkMessageId: `wamid.${nextPhone()}`, from: nextPhone(), type: "text", text: "Half: ½ off, item ⑴ ready" },
    });
    if (!("message" in received)) throw new Error("the message was skipped");
    const conversation = { id: received.message.conversation_id };
    const texts = ["ab½", "½½", "⑴x", "⑴⑵", "&|!():*", "'quoted'", '"double"', "back\\slash", "a'b", "\\\\", "x:*", "<->", "ﬁ ligature", "ßß", "Ⅻ!", "㍿㍿", "¼¾", "x".repeat(200)];
    for (const q of texts) {
      const res = await send("GET", `/v1/search?q=${encodeURIComponent(q)}`, { token: adminToken });
      expect(res.status, `${q}: ${res.text.slice(0, 200)}`).toBe(200);
      expect(Array.isArray(res.json.data)).toBe(true);
    }
    // Still sensible: the fraction and the enclosed digit find the message that holds them.
    for (const q of ["½ off", "item ⑴"]) {
      const found = await send("GET", `/v1/search?q=${encodeURIComponent(q)}`, { token: adminToken });
      expect(found.json.data.map((r: { conversation: { id: string } }) => r.conversation.id), q).toEqual([conversation.id]);
    }
    const ordinary = await send("GET", "/v1/search?q=ready", { token: adminToken });
    expect(ordinary.json.data).toHaveLength(1);
  });
});

describe("Idempotency-Key replays", () => {
  it("treat the same JSON with its keys reordered (and other spacing) as the same request", async () => {
    const { account, adminToken } = await createTestAccount();
    const to = nextPhone();
    const key = { "idempotency-key": `reorder-${to}` };
    const first = await send("POST", "/v1/messages", { token: adminToken, headers: { ...JSON_TYPE, ...key }, body: JSON.stringify({ to, type: "text", text: "café" }) });
    expect(first.status, first.text).toBe(201);
    const before = await countRows(account.id);
    const reordered = await send("POST", "/v1/messages", {
      token: adminToken,
      headers: { ...JSON_TYPE, ...key },
      body: `{ "text" : "caf\\u00e9",\n "type": "text", "to": "${to}" }`,
    });
    expect(reordered.status, reordered.text).toBe(201);
    expect(reordered.headers.get("idempotent-replayed")).toBe("true");
    expect(reordered.json.id).toBe(first.json.id);
    expect(await countRows(account.id)).toEqual(before);
    // Another value is still another request.
    const other = await send("POST", "/v1/messages", { token: adminToken, headers: { ...JSON_TYPE, ...key }, body: JSON.stringify({ type: "text", to, text: "cafe" }) });
    expect(other.status).toBe(409);
  });
});

describe("cursors", () => {
  it("are bound to the list and the filters they came from: elsewhere they are a 400 invalid cursor", async () => {
    const { account, adminToken } = await createTestAccount();
    for (let i = 0; i < 3; i++) await seedConversation({ accountId: account.id, status: "open", at: new Date(Date.now() - i * 1000) });
    const first = await send("GET", "/v1/conversations?status=open&limit=1", { token: adminToken });
    expect(first.status).toBe(200);
    const cursor = first.json.pagination.next_cursor as string;
    expect(cursor).toBeTruthy();

    // The same list and filters, with another page size or the parameters in another order: fine.
    const next = await send("GET", `/v1/conversations?limit=2&cursor=${encodeURIComponent(cursor)}&status=open`, { token: adminToken });
    expect(next.status, next.text).toBe(200);
    expect(next.json.data.map((c: { id: string }) => c.id)).not.toContain(first.json.data[0].id);

    for (const path of [
      `/v1/conversations?status=closed&cursor=${encodeURIComponent(cursor)}`,
      `/v1/conversations?cursor=${encodeURIComponent(cursor)}`,
      `/v1/contacts?cursor=${encodeURIComponent(cursor)}`,
      `/v1/users?cursor=${encodeURIComponent(cursor)}`,
      `/v1/audit-log?cursor=${encodeURIComponent(cursor)}`,
    ]) {
      const res = await send("GET", path, { token: adminToken });
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(res.json.error.code).toBe("validation_error");
      expect(res.json.error.details).toEqual([{ path: "cursor", message: expect.stringMatching(/another list/) }]);
    }
  });
});

describe("a token without the scope", () => {
  it("gets 403 insufficient_scope with the RFC 6750 challenge naming the scope", async () => {
    const { adminToken } = await createTestAccount();
    const readOnly = await scopedToken(adminToken, ["conversations:read"]);
    const res = await send("GET", "/v1/users", { token: readOnly });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("insufficient_scope");
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toMatch(/error="insufficient_scope"/);
    expect(challenge).toMatch(/scope="users:read"/);
  });
});

describe("the plant store", () => {
  it("carries X-Request-Id on every answer: 404 for an unknown path, 405, 400, 401 and success", async () => {
    const { adminToken } = await createTestAccount();
    const answers = [
      await send("GET", "/plant-store/nothing/here", { token: adminToken }),
      await send("PUT", "/plant-store/plants", { token: adminToken }),
      await send("DELETE", "/plant-store/plants/abc", { token: adminToken }),
      await send("DELETE", "/plant-store/plants/%E0%A4%A", { token: adminToken }),
      await send("GET", "/plant-store/plants"),
      await send("GET", "/plant-store/plants", { token: adminToken, headers: { "x-request-id": "req_given" } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 405, 400, 400, 401, 200]);
    for (const answer of answers) expect(answer.headers.get("x-request-id"), answer.text).toMatch(/^req_/);
    expect(answers[5].headers.get("x-request-id")).toBe("req_given");
    expect(answers[3].json).toEqual({ error: 400, message: expect.stringMatching(/percent-escape/) });
  });
});

describe("a malformed %-escape or a NUL in a path id", () => {
  it("is a 400 with the error body, the request id and the rate budget, on every route", async () => {
    const { adminToken } = await createTestAccount();
    for (const [method, path] of [
      ["GET", "/v1/conversations/%E0%A4%A"],
      ["GET", "/v1/contacts/%"],
      ["POST", "/v1/conversations/%FF/close"],
      ["GET", "/v1/unknown/%"],
      ["GET", "/v1/contacts/ctc_1%00"],
      ["GET", "/v1/conversations?status=%00"],
    ]) {
      const res = await send(method, path, { token: adminToken });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.json).toEqual({ error: { code: "validation_error", message: expect.any(String), details: [expect.objectContaining({ message: expect.any(String) })] }, request_id: res.headers.get("x-request-id") });
      expect(res.headers.get("ratelimit-remaining"), `${method} ${path}`).toMatch(/^\d+$/);
    }
  });
});
