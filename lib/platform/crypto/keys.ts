import { hkdfSync } from "node:crypto";
import { getEnv } from "@/lib/platform/env";

const cache = new Map<string, Buffer>();

/** A 32-byte key for one purpose, derived from AUTH_SECRET so purposes never share a key. */
export function deriveKey(purpose: "jwt" | "cursor" | "secrets-at-rest"): Buffer {
  const secret = getEnv().AUTH_SECRET;
  const cacheKey = `${purpose}:${secret}`;
  let key = cache.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "chorus", `chorus:${purpose}`, 32));
    cache.set(cacheKey, key);
  }
  return key;
}
