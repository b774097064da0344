import { and, eq, isNull, lt } from "drizzle-orm";
import type { Executor } from "@/db";
import { idempotencyKeys } from "@/db/schema";

// The reads and writes of the idempotency store of the /v1 wrapper.

type KeyOf = { accountId: string; route: string; key: string };
type Claim = KeyOf & { requestHash: string; userId: string };

const keyIs = (claim: KeyOf) => and(eq(idempotencyKeys.accountId, claim.accountId), eq(idempotencyKeys.route, claim.route), eq(idempotencyKeys.key, claim.key));

/** Forgets this key when it was claimed before `before` (outside the replay window). */
export async function deleteKeyClaimedBefore(db: Executor, claim: KeyOf, before: Date) {
  await db.delete(idempotencyKeys).where(and(keyIs(claim), lt(idempotencyKeys.createdAt, before)));
}

/** Claims the key; false when it is held already. */
export async function insertClaim(db: Executor, claim: Claim) {
  const inserted = await db.insert(idempotencyKeys).values({ ...claim }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

export async function findKey(db: Executor, claim: KeyOf) {
  const [existing] = await db.select().from(idempotencyKeys).where(keyIs(claim)).limit(1);
  return existing;
}

/**
 * Takes over a claim for the same body left uncompleted since before `abandonedBefore`;
 * conditional, so that of two retries racing for it only one wins (true).
 */
export async function takeOverAbandonedClaim(db: Executor, claim: Claim, { now, abandonedBefore }: { now: Date; abandonedBefore: Date }) {
  const taken = await db
    .update(idempotencyKeys)
    .set({ createdAt: now })
    .where(and(keyIs(claim), isNull(idempotencyKeys.responseStatus), eq(idempotencyKeys.requestHash, claim.requestHash), lt(idempotencyKeys.createdAt, abandonedBefore)))
    .returning({ key: idempotencyKeys.key });
  return taken.length > 0;
}

export async function storeKeyResponse(db: Executor, claim: KeyOf, response: { status: number; body: string }) {
  await db.update(idempotencyKeys).set({ responseStatus: response.status, responseBody: response.body }).where(keyIs(claim));
}

export async function deleteKey(db: Executor, claim: KeyOf) {
  await db.delete(idempotencyKeys).where(keyIs(claim));
}
