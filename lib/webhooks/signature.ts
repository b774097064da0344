import { randomBytes } from "node:crypto";
import { hmacSha256Base64, hmacSha256Hex } from "@/lib/platform/crypto/hmac";

export type SignatureHeaders = {
  "X-Service-Signature": string;
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

const secretPrefix = "whsec_";
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key of the Standard Webhooks `webhook-signature`, as that standard defines it: the
 * base64-decoded part after an optional `whsec_` prefix, so `new Webhook(secret)` of any
 * Standard Webhooks library verifies a delivery unedited. A chosen secret that is not such a
 * base64 string (a library would refuse it) is keyed by its UTF-8 bytes.
 */
function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(secretPrefix) ? secret.slice(secretPrefix.length) : secret;
  if (encoded.length > 0 && base64Pattern.test(encoded)) return Buffer.from(encoded, "base64");
  return Buffer.from(secret, "utf8");
}

/**
 * Signs one delivery. `X-Service-Signature` uses the UTF-8 bytes of the whole secret string
 * as shown at registration (prefix included) as its HMAC key, the documented "HMAC-SHA256 ...
 * with the webhook secret". `webhook-signature` is keyed as the Standard Webhooks
 * specification says (see `standardWebhookKey`).
 */
export function signPayload({
  secret,
  body,
  eventId,
  timestamp,
}: {
  secret: string;
  body: string;
  eventId: string;
  timestamp: number;
}): SignatureHeaders {
  const seconds = String(Math.floor(timestamp));
  return {
    "X-Service-Signature": `sha256=${hmacSha256Hex({ key: Buffer.from(secret, "utf8"), body })}`,
    "webhook-id": eventId,
    "webhook-timestamp": seconds,
    "webhook-signature": `v1,${hmacSha256Base64({ key: standardWebhookKey(secret), body: `${eventId}.${seconds}.${body}` })}`,
  };
}

export function generateWebhookSecret(): string {
  return secretPrefix + randomBytes(24).toString("base64");
}
