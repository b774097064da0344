import { createHmac, timingSafeEqual } from "node:crypto";

export type Bytes = string | Uint8Array;

const sha256HexPattern = /^[0-9a-f]{64}$/i;

export function hmacSha256Hex({ key, body }: { key: Bytes; body: Bytes }): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

export function hmacSha256Base64({ key, body }: { key: Bytes; body: Bytes }): string {
  return createHmac("sha256", key).update(body).digest("base64");
}

/** Compares two digests in constant time (different lengths are simply unequal). */
function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a `sha256=<hex>` signature header (the form of X-Service-Signature and the messaging
 * network's X-Hub-Signature-256) against the HMAC-SHA256 of the exact body bytes.
 */
export function verifySha256Header({ key, body, header }: { key: Bytes; body: Bytes; header: string | null | undefined }): boolean {
  if (typeof header !== "string" || !header.startsWith("sha256=")) return false;
  const given = header.slice("sha256=".length).trim();
  if (!sha256HexPattern.test(given)) return false;
  const expected = createHmac("sha256", key).update(body).digest();
  return equalBytes(expected, Buffer.from(given, "hex"));
}
