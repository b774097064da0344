import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { clientAddress } from "@/lib/platform/http/client-address";
import { apiRoute } from "@/lib/api/route";
import { isEnvError, parseEnv, resetEnvCache } from "@/lib/platform/env";
import { loggable } from "@/lib/platform/errors";
import { PEER_ADDRESS_HEADER, requestMethod, stampRequest } from "@/lib/platform/http/request-hook";
import { inboundMediaKind } from "@/lib/messages/inbound-media-type";
import { buildPlantStoreDocument } from "@/lib/openapi/plant-store";
import { webhookDeliveryHeaders } from "@/lib/openapi/webhook-headers";
import { runAction } from "@/lib/server/action";

const EMAIL = "carol.secret@example.com";
const HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo";

/** A failed query as drizzle builds it, but from another copy of the class (as in a production bundle). */
class DrizzleQueryError extends Error {
  constructor(
    readonly query: string,
    readonly params: unknown[],
    override readonly cause: unknown,
  ) {
    super(`Failed query: ${query}\nparams: ${params.join(",")}`);
    this.name = "DrizzleQueryError";
  }
}
const failedQuery = () =>
  new DrizzleQueryError('insert into "users" ("email", "password_hash") values ($1, $2)', [EMAIL, HASH], Object.assign(new Error(`duplicate key value (email)=(${EMAIL})`), { code: "23514" }));

describe("5. logs name errors by code and query, never by their text", () => {
  afterEach(() => vi.restoreAllMocks());

  it("loggable keeps the name, SQLSTATE and the statement's verb and table, and nothing from the parameters", () => {
    const line = loggable(failedQuery());
    expect(line).toBe('DrizzleQueryError code=23514 query="insert users"');
    expect(loggable(new Error(`user ${EMAIL} said "my card is 4242"`))).toBe("Error");
  });

  it("the /v1 wrapper logs an unexpected error with the request id, its code and query name only", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const handler = apiRoute({ access: { auth: "none" } }, () => {
      throw failedQuery();
    });
    const res = await handler(new Request("http://localhost/v1/x", { headers: { "x-request-id": "req-log-test", [PEER_ADDRESS_HEADER]: "192.0.2.200" } }), {
      params: Promise.resolve({}),
    });
    expect(res.status).toBe(500);
    const logged = spy.mock.calls.flat().map(String).join("\n");
    expect(logged).toContain("req-log-test");
    expect(logged).toContain("code=23514");
    expect(logged).not.toContain(EMAIL);
    expect(logged).not.toContain(HASH);
  });

  it("server actions log a raw failure by name only", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await runAction(async () => {
      throw failedQuery();
    });
    expect(result.ok).toBe(false);
    const logged = spy.mock.calls.flat().map(String).join("\n");
    expect(logged).toContain("DrizzleQueryError");
    expect(logged).not.toContain(EMAIL);
    expect(logged).not.toContain(HASH);
  });
});

describe("2 and 9. the server's stamp on each request", () => {
  const incoming = (method: string, headers: Record<string, string>) =>
    ({ method, headers: { ...headers }, socket: { remoteAddress: "198.51.100.23" } }) as unknown as IncomingMessage;

  it("writes the socket's address over whatever the client sent, and hands TRACE to the route as OPTIONS", () => {
    const req = incoming("TRACE", { [PEER_ADDRESS_HEADER]: "10.0.0.1", "x-chorus-original-method": "GET" });
    stampRequest(req);
    expect(req.headers[PEER_ADDRESS_HEADER]).toBe("198.51.100.23");
    expect(req.method).toBe("OPTIONS");
    expect(req.headers["x-chorus-original-method"]).toBe("TRACE");
    const get = incoming("GET", { "x-chorus-original-method": "TRACE" });
    stampRequest(get);
    expect(get.method).toBe("GET");
    expect(get.headers["x-chorus-original-method"]).toBeUndefined();
    expect(requestMethod(new Request("http://x/", { method: "OPTIONS", headers: { "x-chorus-original-method": "TRACE" } }))).toBe("TRACE");
  });

  it("the client address is the socket's with TRUSTED_PROXIES=0, else the Nth entry from the right", () => {
    const req = (xff?: string) => new Request("http://x/", { headers: { [PEER_ADDRESS_HEADER]: "10.0.0.5", ...(xff ? { "x-forwarded-for": xff } : {}) } });
    try {
      process.env.TRUSTED_PROXIES = "0";
      resetEnvCache();
      expect(clientAddress(req("203.0.113.1"))).toBe("10.0.0.5");
      process.env.TRUSTED_PROXIES = "1";
      resetEnvCache();
      expect(clientAddress(req("6.6.6.6, 203.0.113.1"))).toBe("203.0.113.1");
      process.env.TRUSTED_PROXIES = "2";
      resetEnvCache();
      expect(clientAddress(req("6.6.6.6, 203.0.113.1, 10.0.0.9"))).toBe("203.0.113.1");
      expect(clientAddress(req())).toBe("10.0.0.5");
    } finally {
      delete process.env.TRUSTED_PROXIES;
      resetEnvCache();
    }
  });
});

describe("16. a bad environment value", () => {
  it("names the variable in one line, and is recognised by name (not instanceof)", () => {
    for (const [name, value] of [
      ["RATE_LIMIT_PER_MINUTE", "10000000"],
      ["TRUSTED_PROXIES", "-1"],
      ["TRUSTED_PROXIES", "lots"],
    ]) {
      let caught: unknown;
      try {
        parseEnv({ [name]: value, AUTH_SECRET: "x".repeat(40) });
      } catch (error) {
        caught = error;
      }
      expect(isEnvError(caught)).toBe(true);
      expect((caught as Error).message).toMatch(new RegExp(`^Invalid environment variable ${name}: [^\\n]+$`));
    }
    const copy = Object.assign(new Error("Invalid environment variable PORT: bad"), { name: "EnvError" });
    expect(isEnvError(copy)).toBe(true);
    expect(parseEnv({ AUTH_SECRET: "x".repeat(40) }).TRUSTED_PROXIES).toBe(0);
  });
});

describe("1. the stored type of a received file", () => {
  const cases: [string, Buffer, string, string][] = [
    ["text/html", Buffer.from("<html><script>1</script>"), "application/octet-stream", "document"],
    ["image/svg+xml", Buffer.from("<svg onload=alert(1)>"), "application/octet-stream", "document"],
    ["image/jpeg", Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), "image/png", "image"],
    ["application/pdf", Buffer.from("%PDF-1.4 ..."), "application/pdf", "document"],
    ["text/plain", Buffer.from("plain words"), "text/plain", "document"],
    ["application/x-msdownload", Buffer.from("MZ\x90\x00"), "application/octet-stream", "document"],
    ["image/webp", Buffer.concat([Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 ", "latin1"), Buffer.alloc(8)]), "image/webp", "image"],
  ];
  it.each(cases)("declared %s → %s", (declared, bytes, mimeType, type) => {
    expect(inboundMediaKind({ bytes, declared })).toEqual({ mimeType, type });
  });
});

describe("19. the documents say what the servers send", () => {
  it("every plant store answer declares X-Request-Id and the RateLimit headers", () => {
    const doc = buildPlantStoreDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; $ref?: string }> }>>; components?: { responses?: Record<string, { headers?: Record<string, unknown> }> } };
    for (const item of Object.values(doc.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const resolved = response.$ref ? doc.components!.responses![response.$ref.split("/").pop()!] : response;
          expect(Object.keys(resolved.headers ?? {}), status).toEqual(expect.arrayContaining(["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]));
        }
      }
    }
  });

  it("X-Service-Delivery-Attempt allows the numbers a manual redelivery sends after the fifth", () => {
    const attempt = webhookDeliveryHeaders.shape["X-Service-Delivery-Attempt"] as z.ZodString;
    expect(attempt.safeParse("6").success).toBe(true);
    expect(attempt.safeParse("0").success).toBe(false);
    expect(z.toJSONSchema(attempt)).not.toHaveProperty("maximum");
  });
});
