import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random secret handed out once (client secret, code, refresh token, link); only its hash is stored. */
export function newSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function secretMatches(secret: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The PKCE S256 challenge of a verifier (RFC 7636 section 4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}
