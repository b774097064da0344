import "server-only";
import { createECDH, hkdfSync } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir, getEnv } from "@/lib/platform/env";

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

const b64url = (buffer: Buffer) => buffer.toString("base64url");

function keysFromPrivate(privateKey: Buffer) {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return { publicKey: b64url(ecdh.getPublicKey()), privateKey: b64url(privateKey) };
}

/** A new pair, written once (owner-only) next to the generated AUTH_SECRET. */
function loadOrCreateFile(): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, "vapid-keys.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { publicKey: string; privateKey: string };
    return keysFromPrivate(Buffer.from(stored.privateKey, "base64url"));
  }
  mkdirSync(dataDir, { recursive: true });
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const keys = keysFromPrivate(ecdh.getPrivateKey());
  writeFileSync(file, JSON.stringify(keys) + "\n", { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

/**
 * Every instance of a server-database deployment shares AUTH_SECRET, so the key derived from it
 * is the same on all of them (a subscription made through one is pushed by any other).
 */
function deriveFromAuthSecret(secret: string) {
  for (let counter = 0; ; counter++) {
    const candidate = Buffer.from(hkdfSync("sha256", secret, "chorus", `chorus:vapid:${counter}`, 32));
    try {
      return keysFromPrivate(candidate);
    } catch {
      // Not a valid P-256 scalar (odds about 2^-32): the next one.
    }
  }
}

// Per parsed environment (tests change it), so a new VAPID_* value is picked up.
const cache = new WeakMap<object, VapidKeys>();

/**
 * The server's VAPID identity: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set; otherwise a pair
 * generated once into ./.data (embedded database) or derived from AUTH_SECRET (DATABASE_URL).
 * The private key never leaves this module's callers' process: it is neither logged nor returned.
 */
export function getVapidKeys(): VapidKeys {
  const env = getEnv();
  const known = cache.get(env);
  if (known) return known;
  const pair =
    env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
      ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
      : env.DATABASE_URL
        ? deriveFromAuthSecret(env.AUTH_SECRET)
        : loadOrCreateFile();
  const subject = env.VAPID_SUBJECT ?? `mailto:push@${new URL(env.APP_URL).hostname.replace(/^localhost$/, "localhost.localdomain")}`;
  const keys = { ...pair, subject };
  cache.set(env, keys);
  return keys;
}

/** What a browser needs to subscribe (`applicationServerKey`). */
export const vapidPublicKey = () => getVapidKeys().publicKey;
