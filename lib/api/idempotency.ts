import { createHash } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { getDb } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { ApiError, ConflictError, invalidField } from "@/lib/platform/errors";

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
export async function claimIdempotencyKey(claim: Claim): Promise<StoredResponse | null> {
  const db = getDb();
  const where = and(
    eq(idempotencyKeys.accountId, claim.accountId),
    eq(idempotencyKeys.route, claim.route),
    eq(idempotencyKeys.key, claim.key),
  );
  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, new Date(Date.now() - WINDOW_MS))));
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ ...claim })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return null;

  const [existing] = await db.select().from(idempotencyKeys).where(where).limit(1);
  if (!existing) throw new ApiError(409, "conflict", "The idempotency key is being reused concurrently; retry.");
  if (existing.requestHash !== claim.requestHash) {
    throw new ConflictError("This Idempotency-Key was already used with a different request body.");
  }
  if (existing.responseStatus === null || existing.responseBody === null) {
    // Conditional, so that of two retries racing for an abandoned claim only one runs.
    const now = new Date();
    const taken = await db
      .update(idempotencyKeys)
      .set({ createdAt: now })
      .where(
        and(
          where,
          isNull(idempotencyKeys.responseStatus),
          eq(idempotencyKeys.requestHash, claim.requestHash),
          lt(idempotencyKeys.createdAt, new Date(now.getTime() - ABANDONED_CLAIM_MS)),
        ),
      )
      .returning({ key: idempotencyKeys.key });
    if (taken.length > 0) return null;
    throw new ConflictError("A request with this Idempotency-Key is still being processed.");
  }
  return { status: existing.responseStatus, body: existing.responseBody, userId: existing.userId };
}

export async function completeIdempotencyKey(claim: Claim, response: Omit<StoredResponse, "userId">) {
  await getDb()
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: response.body })
    .where(
      and(
        eq(idempotencyKeys.accountId, claim.accountId),
        eq(idempotencyKeys.route, claim.route),
        eq(idempotencyKeys.key, claim.key),
      ),
    );
}

/** A request that failed on the server side may be retried with the same key. */
export async function releaseIdempotencyKey(claim: Claim) {
  await getDb()
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.accountId, claim.accountId),
        eq(idempotencyKeys.route, claim.route),
        eq(idempotencyKeys.key, claim.key),
      ),
    );
}
