import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { hmacSha256Hex, verifySha256Header } from "@/lib/platform/crypto/hmac";
import { generateWebhookSecret, signPayload } from "@/lib/webhooks/signature";

const body = JSON.stringify({
  id: "evt_01JD7ZQ0000000000000000000",
  type: "message.received",
  created_at: "2026-11-22T10:15:30.123Z",
  data: { message: { text: "Olá 👋" } },
});
const eventId = "evt_01JD7ZQ0000000000000000000";
const timestamp = 1_790_000_000;

describe("hmacSha256Hex", () => {
  it("matches the published HMAC-SHA256 vector", () => {
    expect(hmacSha256Hex({ key: "key", body: "The quick brown fox jumps over the lazy dog" })).toBe(
      "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
    );
  });
});

describe("signPayload", () => {
  it("signs X-Service-Signature with the whole secret string as the key", () => {
    const secret = generateWebhookSecret();
    const headers = signPayload({ secret, body, eventId, timestamp });
    const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(body, "utf8").digest("hex");
    expect(headers["X-Service-Signature"]).toBe(`sha256=${expected}`);
    expect(headers["X-Service-Signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it("signs webhook-signature with the base64-decoded part of a whsec_ secret, as Standard Webhooks says", () => {
    const secret = generateWebhookSecret();
    const headers = signPayload({ secret, body, eventId, timestamp });
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const expected = createHmac("sha256", key).update(`${eventId}.${timestamp}.${body}`).digest("base64");
    expect(headers["webhook-id"]).toBe(eventId);
    expect(headers["webhook-timestamp"]).toBe(String(timestamp));
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("signs webhook-signature of a chosen secret that is not base64 with its UTF-8 bytes", () => {
    const secret = "my-own-secret-of-24-chars!";
    const headers = signPayload({ secret, body, eventId, timestamp });
    const expected = createHmac("sha256", secret).update(`${eventId}.${timestamp}.${body}`).digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("matches the Standard Webhooks reference vector and keeps X-Service-Signature keyed by the secret string", () => {
    const headers = signPayload({
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      body: '{"test": 2432232314}',
      eventId: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
    });
    expect(headers["X-Service-Signature"]).toBe("sha256=80ec8a89ce3cd22133a1066caecb4d04fea7467657c8514d717ec42c38a5c94c");
    // The example signature published with the Standard Webhooks specification.
    expect(headers["webhook-signature"]).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("is accepted by the standardwebhooks package given the secret exactly as shown", () => {
    for (const secret of [generateWebhookSecret(), "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "c2VjcmV0LWNob3Nlbi1ieS10aGUtdXNlcg=="]) {
      const now = Math.floor(Date.now() / 1000);
      const headers = signPayload({ secret, body, eventId, timestamp: now });
      const payload = new Webhook(secret).verify(body, {
        "webhook-id": headers["webhook-id"],
        "webhook-timestamp": headers["webhook-timestamp"],
        "webhook-signature": headers["webhook-signature"],
      });
      expect(payload).toEqual(JSON.parse(body));
    }
  });

  it("produces a fixed X-Service-Signature for a fixed secret and body", () => {
    const headers = signPayload({ secret: "key", body: "The quick brown fox jumps over the lazy dog", eventId, timestamp });
    expect(headers["X-Service-Signature"]).toBe(
      "sha256=f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
    );
  });

  it("keys a whsec_ secret whose remainder is not base64 by its UTF-8 bytes too", () => {
    for (const secret of ["whsec_not base64!!", "whsec_"]) {
      const headers = signPayload({ secret, body, eventId, timestamp });
      const expected = createHmac("sha256", secret).update(`${eventId}.${timestamp}.${body}`).digest("base64");
      expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
    }
  });
});

describe("generateWebhookSecret", () => {
  it("returns whsec_ followed by base64 of 24 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it("fits the 16..128 character secret rule", () => {
    const { length } = generateWebhookSecret();
    expect(length).toBeGreaterThanOrEqual(16);
    expect(length).toBeLessThanOrEqual(128);
  });
});

describe("verifySha256Header on X-Service-Signature", () => {
  const secret = generateWebhookSecret();
  const header = signPayload({ secret, body, eventId, timestamp })["X-Service-Signature"];

  it("accepts the signature of the raw body", () => {
    expect(verifySha256Header({ key: secret, body, header })).toBe(true);
    expect(verifySha256Header({ key: secret, body: Buffer.from(body), header })).toBe(true);
  });

  it("refuses a tampered body", () => {
    expect(verifySha256Header({ key: secret, body: body.replace("Olá", "Ola"), header })).toBe(false);
    expect(verifySha256Header({ key: secret, body: `${body} `, header })).toBe(false);
  });

  it("refuses a different secret", () => {
    expect(verifySha256Header({ key: `${secret}x`, body, header })).toBe(false);
  });

  it("refuses malformed or missing headers", () => {
    expect(verifySha256Header({ key: secret, body, header: undefined })).toBe(false);
    expect(verifySha256Header({ key: secret, body, header: "" })).toBe(false);
    expect(verifySha256Header({ key: secret, body, header: header.slice("sha256=".length) })).toBe(false);
    expect(verifySha256Header({ key: secret, body, header: header.slice(0, -2) })).toBe(false);
    expect(verifySha256Header({ key: secret, body, header: `${header}00` })).toBe(false);
    expect(verifySha256Header({ key: secret, body, header: `sha1=${header.slice(7)}` })).toBe(false);
  });
});

describe("verifySha256Header (the network's X-Hub-Signature-256)", () => {
  const appSecret = "0123456789abcdef0123456789abcdef";
  const rawBody = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  const header = `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;

  it("accepts the network's signature of the raw body", () => {
    expect(verifySha256Header({ key: appSecret, body: rawBody, header })).toBe(true);
  });

  it("accepts upper-case hex digits", () => {
    expect(verifySha256Header({ key: appSecret, body: rawBody, header: `sha256=${header.slice(7).toUpperCase()}` })).toBe(true);
  });

  it("refuses a tampered body or the wrong app secret", () => {
    expect(verifySha256Header({ key: appSecret, body: Buffer.concat([rawBody, Buffer.from(" ")]), header })).toBe(false);
    expect(verifySha256Header({ key: "another-secret", body: rawBody, header })).toBe(false);
    expect(verifySha256Header({ key: appSecret, body: rawBody, header: null })).toBe(false);
  });
});
