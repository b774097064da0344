import { createHash } from "node:crypto";
import type { Executor } from "@/db";
import { ApiError, ConflictError, invalidField } from "@/lib/platform/errors";
import { deleteKey, deleteKeyClaimedBefore, findKey, insertClaim, storeKeyResponse, takeOverAbandonedClaim } from "./store";

const WINDOW_MS = 24 * 60 * 60 * 1000;
// A claim left uncompleted this long belongs to a request that never finished (the process
// stopped mid-way): a retry takes it over instead of waiting out the window.
export const ABANDONED_CLAIM_MS = 60 * 1000;

export type StoredResponse = { status: number; body: string; userId: string | null };

/**
 * JSON text with every object's keys in sorted order and no insignificant whitespace, so that
 * two bodies meaning the same (keys reordered, spaces, `\u00e9` for `é`) read the same.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The fingerprint of a request body: its parsed JSON, canonicalised, not its bytes. */
export function hashRequest(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

export function parseIdempotencyKey(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(header)) {
    throw invalidField("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
  }
  return header;
}

type Claim = { accountId: string; route: string; key: string; requestHash: string; userId: string };

/**
 * Claims a key before the work runs. Returns the first response for a replay; a key
 * reused with another body, or still in flight, is a 409. An uncompleted claim older than
 * ABANDONED_CLAIM_MS is taken over, so the retry runs.
 */
export async function claimIdempotencyKey(db: Executor, claim: Claim): Promise<StoredResponse | null> {
  await deleteKeyClaimedBefore(db, claim, new Date(Date.now() - WINDOW_MS));
  if (await insertClaim(db, claim)) return null;

  const existing = await findKey(db, claim);
  if (!existing) throw new ApiError(409, "conflict", "The idempotency key is being reused concurrently; retry.");
  if (existing.requestHash !== claim.requestHash) {
    throw new ConflictError("This Idempotency-Key was already used with a different request body.");
  }
  if (existing.responseStatus === null || existing.responseBody === null) {
    const now = new Date();
    if (await takeOverAbandonedClaim(db, claim, { now, abandonedBefore: new Date(now.getTime() - ABANDONED_CLAIM_MS) })) return null;
    throw new ConflictError("A request with this Idempotency-Key is still being processed.");
  }
  return { status: existing.responseStatus, body: existing.responseBody, userId: existing.userId };
}

export async function completeIdempotencyKey(db: Executor, claim: Claim, response: Omit<StoredResponse, "userId">) {
  await storeKeyResponse(db, claim, response);
}

/** A request that failed on the server side may be retried with the same key. */
export async function releaseIdempotencyKey(db: Executor, claim: Claim) {
  await deleteKey(db, claim);
}
