import type { Executor } from "@/db";
import { notifyAuthChange } from "./store";

/**
 * Token and user state behind a verified token, kept in process so that an authenticated
 * `/v1` request usually costs no database round trip. Every change that can take access
 * away (a token revoked, a user deleted, demoted or renamed, a password changed) calls
 * `announceAuthChange` in its transaction: this process forgets at once, and every other
 * process when the NOTIFY arrives on commit. An entry also lives at most ENTRY_TTL_MS, so a
 * missed notification (a dropped LISTEN connection) costs at most that long.
 */
export const AUTH_CHANNEL = "chorus_auth";
const ENTRY_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

type Entry<T> = { value: T; at: number; generation: number };
// On globalThis: the server bundles each route and action separately, and a revocation made
// by one of them must be forgotten by all of them.
const cache = ((globalThis as { __chorusTokenCache?: { entries: Map<string, Entry<unknown>>; generation: number } }).__chorusTokenCache ??= {
  entries: new Map(),
  generation: 0,
});
const entries = cache.entries;

/** Forgets every cached token (revocations are rare; forgetting everything keeps it simple and safe). */
export function forgetCachedTokens() {
  cache.generation++;
  entries.clear();
}

/** The cached value for a token id, or loads it (and caches it unless access changed meanwhile). */
export async function cachedToken<T>(tokenId: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(tokenId);
  if (hit && hit.generation === cache.generation && now - hit.at < ENTRY_TTL_MS) return hit.value as T;
  const before = cache.generation;
  const value = await load();
  // A change announced while loading may not be in what was read: not cached then.
  if (before === cache.generation) {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(tokenId, { value, at: now, generation: cache.generation });
  }
  return value;
}

/** In the transaction that takes access away: forget here now, and everywhere on commit. */
export async function announceAuthChange(tx: Executor) {
  forgetCachedTokens();
  await notifyAuthChange(tx, AUTH_CHANNEL);
}
