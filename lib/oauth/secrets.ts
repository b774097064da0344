import { createHash } from "node:crypto";

export { hashSecret, newSecret, secretMatches } from "@/lib/auth/secret-hash";

/** The PKCE S256 challenge of a verifier (RFC 7636 section 4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}
