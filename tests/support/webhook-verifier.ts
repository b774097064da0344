import { createHmac, timingSafeEqual } from "node:crypto";
import type { ReceivedRequest } from "./webhook-receiver";

/**
 * A receiver's signature check written from SPEC section 5 alone, with node:crypto and
 * nothing from the application:
 * - X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the secret string>
 * - webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">,
 *   keyed by the same secret string (its UTF-8 bytes, whsec_ prefix included).
 */
export function verifyDelivery(request: ReceivedRequest, secret: string, { toleranceSeconds = 300 } = {}) {
  const problems: string[] = [];
  const body = request.raw;
  const expectedHex = createHmac("sha256", secret).update(body).digest("hex");
  const given = request.headers["x-service-signature"] ?? "";
  if (!given.startsWith("sha256=")) problems.push("X-Service-Signature lacks sha256=");
  const givenHex = given.slice(7);
  if (givenHex !== givenHex.toLowerCase()) problems.push("X-Service-Signature is not lowercase hex");
  if (givenHex.length !== expectedHex.length || !timingSafeEqual(Buffer.from(givenHex), Buffer.from(expectedHex))) {
    problems.push("X-Service-Signature does not match");
  }

  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const signature = request.headers["webhook-signature"] ?? "";
  if (!id || !timestamp || !/^\d+$/.test(timestamp)) problems.push("Standard Webhooks id/timestamp missing");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) problems.push("webhook-timestamp outside tolerance");
  const expectedB64 = createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64");
  const ok = signature.split(" ").some((part) => part === `v1,${expectedB64}`);
  if (!ok) problems.push("webhook-signature does not match");
  return problems;
}
