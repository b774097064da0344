import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { ReceivedRequest } from "./webhook-receiver";

/** The standardwebhooks package refuses a key that is not base64 (a chosen secret): null then. */
function standardWebhook(secret: string): Webhook | null {
  try {
    return new Webhook(secret);
  } catch {
    return null;
  }
}

/**
 * A receiver's signature check written from the documented webhook contract alone, with node:crypto and
 * nothing from the application:
 * - X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the secret string>
 * - webhook-signature: checked by the independent `standardwebhooks` package given the secret as
 *   shown (`new Webhook(secret)`); a chosen secret that package cannot take (not base64) is
 *   keyed by its UTF-8 bytes.
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
  const library = standardWebhook(secret);
  let ok: boolean;
  if (library) {
    try {
      library.verify(body, { "webhook-id": id ?? "", "webhook-timestamp": timestamp ?? "", "webhook-signature": signature });
      ok = true;
    } catch {
      ok = false;
    }
  } else {
    const expectedB64 = createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64");
    ok = signature.split(" ").some((part) => part === `v1,${expectedB64}`);
  }
  if (!ok) problems.push("webhook-signature does not match");
  return problems;
}
