import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "@/lib/platform/crypto/keys";

const VERSION = "v1";

/**
 * Encrypts a secret for storage with AES-256-GCM under the secrets-at-rest key. The account
 * id and field name are bound as associated data, so a value copied into another row or
 * column does not decrypt.
 */
export function encryptSecret({ plaintext, accountId, field }: { plaintext: string; accountId: string; field: string }): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey("secrets-at-rest"), iv);
  cipher.setAAD(Buffer.from(`${accountId}:${field}`));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

/** The stored secret in clear, or null when there is none or it cannot be decrypted (AUTH_SECRET changed). */
export function decryptSecret({ stored, accountId, field }: { stored: string | null; accountId: string; field: string }): string | null {
  if (!stored) return null;
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey("secrets-at-rest"), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(`${accountId}:${field}`));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
