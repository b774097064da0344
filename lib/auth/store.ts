import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, apiTokens, mfaRecoveryCodes, oauthApps, oauthGrants, userMfa, users } from "@/db/schema";

// The reads and writes of sign-in, tokens and the second factor. Each takes the executor the
// verb holds (the pool or its transaction) and records nothing else.

/** The stored rows behind these token ids, with their owners' current state (one query). */
export function selectTokenRows(db: Executor, ids: string[]) {
  return db
    .select({
      id: apiTokens.id,
      kind: apiTokens.kind,
      tokenName: apiTokens.name,
      appId: oauthApps.id,
      appName: oauthApps.name,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      createdAt: apiTokens.createdAt,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      secondFactorAt: apiTokens.secondFactorAt,
      requireMfa: accounts.requireMfa,
      mfaEnabledAt: userMfa.enabledAt,
      userId: users.id,
      accountId: users.accountId,
      name: users.name,
      email: users.email,
      role: users.role,
      deletedAt: users.deletedAt,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .leftJoin(userMfa, eq(userMfa.userId, users.id))
    .leftJoin(oauthGrants, eq(oauthGrants.id, apiTokens.oauthGrantId))
    .leftJoin(oauthApps, eq(oauthApps.id, oauthGrants.appId))
    .where(inArray(apiTokens.id, ids));
}

/**
 * Notes that a token was used now, and that its owner was active: only when the last note is
 * older than `granularityMs`, so a busy token writes once a minute, not on every request.
 */
export async function noteTokenUse(db: Executor, { tokenId, userId, now, granularityMs }: { tokenId: string; userId: string; now: Date; granularityMs: number }) {
  await Promise.all([
    db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - granularityMs))))),
    db.update(users).set({ lastActiveAt: now }).where(eq(users.id, userId)),
  ]);
}

/** The live user with this email (any case), or undefined. */
export async function findUserByEmail(db: Executor, email: string) {
  const [user] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
  return user;
}

export async function insertToken(db: Executor, values: typeof apiTokens.$inferInsert) {
  const [row] = await db.insert(apiTokens).values(values).returning();
  return row;
}

export async function findToken(db: Executor, id: string) {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id)).limit(1);
  return row;
}

/** An api token of the account (optionally: of this user). */
export async function findApiToken(db: Executor, { accountId, id, userId }: { accountId: string; id: string; userId?: string }) {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.accountId, accountId), eq(apiTokens.kind, "api"), userId ? eq(apiTokens.userId, userId) : undefined))
    .limit(1);
  return row;
}

export async function revokeToken(db: Executor, id: string, at: Date) {
  await db.update(apiTokens).set({ revokedAt: at }).where(eq(apiTokens.id, id));
}

/** Not yet revoked, or refreshed and still in its grace period (revoked_at ahead of `now`). */
const stillValid = (now: Date) => or(isNull(apiTokens.revokedAt), gt(apiTokens.revokedAt, now));

/** Ends one browser session (unless already ended). */
export async function revokeSessionToken(db: Executor, tokenId: string, now: Date) {
  await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.kind, "session"), stillValid(now)));
}

/**
 * Ends every live session of the user but `keep`, every grant of an app (with a reason) and
 * the apps' access tokens. Answers the ids of the apps whose grant ended.
 */
export async function revokeUserAccess(db: Executor, { userId, keep, reason, now }: { userId: string; keep?: string; reason: string; now: Date }) {
  await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.userId, userId), eq(apiTokens.kind, "session"), stillValid(now), keep ? ne(apiTokens.id, keep) : undefined));
  const grants = await db
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .returning({ appId: oauthGrants.appId });
  // An app's access tokens belong to the user's grants; its refresh tokens die with the grant.
  await db.update(apiTokens).set({ revokedAt: now }).where(and(eq(apiTokens.userId, userId), eq(apiTokens.kind, "oauth"), isNull(apiTokens.revokedAt)));
  return grants.map((g) => g.appId);
}

/**
 * Revokes a live token for its renewal: at `revokedAt`, naming its successor (a session's
 * grace period). Answers the old row, or undefined when it was revoked already.
 */
export async function revokeForRenewal(db: Executor, { id, revokedAt, replacedBy }: { id: string; revokedAt: Date; replacedBy?: string }) {
  const [old] = await db
    .update(apiTokens)
    .set(replacedBy ? { revokedAt, replacedBy } : { revokedAt })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  return old;
}

/** Tokens with their owner's id and name, for a keyset page. */
export function selectTokensWithOwner(db: Executor) {
  return db.select({ token: apiTokens, owner: { id: users.id, name: users.name } }).from(apiTokens).innerJoin(users, eq(users.id, apiTokens.userId)).$dynamic();
}

/** The user's live api tokens (not revoked, not expired), newest first. */
export function selectOwnLiveApiTokens(db: Executor, { accountId, userId, now }: { accountId: string; userId: string; now: Date }) {
  return db
    .select()
    .from(apiTokens)
    .where(
      and(eq(apiTokens.accountId, accountId), eq(apiTokens.userId, userId), eq(apiTokens.kind, "api"), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now)),
    )
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(200);
}

/** Revokes every live api token of the user; answers their ids. */
export function revokeOwnApiTokens(db: Executor, { accountId, userId, now }: { accountId: string; userId: string; now: Date }) {
  return db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.accountId, accountId), eq(apiTokens.userId, userId), eq(apiTokens.kind, "api"), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
}

/** A session has proved the second factor now. */
export async function markSessionSecondFactor(db: Executor, { sessionId, userId, at }: { sessionId: string; userId: string; at: Date }) {
  await db
    .update(apiTokens)
    .set({ secondFactorAt: at })
    .where(and(eq(apiTokens.id, sessionId), eq(apiTokens.userId, userId), eq(apiTokens.kind, "session")));
}

/** Cached token state is forgotten by every process when this commits. */
export async function notifyAuthChange(db: Executor, channel: string) {
  await db.execute(sql`select pg_notify(${channel}, '')`);
}

// The second factor.

export async function findMfa(db: Executor, userId: string) {
  const [row] = await db.select().from(userMfa).where(eq(userMfa.userId, userId)).limit(1);
  return row ?? null;
}

export async function countRecoveryCodesLeft(db: Executor, userId: string) {
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return left.n;
}

/** A new secret, not yet enabled (replacing one whose set-up was not confirmed). */
export async function upsertMfaSecret(db: Executor, { userId, accountId, secretEnc, now }: { userId: string; accountId: string; secretEnc: string; now: Date }) {
  await db
    .insert(userMfa)
    .values({ userId, accountId, secretEnc, createdAt: now })
    .onConflictDoUpdate({ target: userMfa.userId, set: { secretEnc, enabledAt: null, lastUsedStep: null, createdAt: now } });
}

/** Turns the second factor on with a fresh set of recovery codes (replacing any earlier). */
export async function enableMfa(db: Executor, { userId, at, step, codeHashes, newCodeId }: { userId: string; at: Date; step: number; codeHashes: string[]; newCodeId: () => string }) {
  await db.update(userMfa).set({ enabledAt: at, lastUsedStep: step }).where(eq(userMfa.userId, userId));
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ id: newCodeId(), userId, codeHash, createdAt: at })));
}

/** Turns the second factor off; false when it was not on. */
export async function deleteMfa(db: Executor, { userId, accountId }: { userId: string; accountId: string }) {
  const deleted = await db.delete(userMfa).where(and(eq(userMfa.userId, userId), eq(userMfa.accountId, accountId))).returning({ userId: userMfa.userId });
  if (!deleted.length) return false;
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  return true;
}

/** Spends a code's time step; conditional, so two sign-ins racing with the same code cannot both pass. */
export async function spendMfaStep(db: Executor, { userId, step }: { userId: string; step: number }) {
  const won = await db
    .update(userMfa)
    .set({ lastUsedStep: step })
    .where(and(eq(userMfa.userId, userId), or(isNull(userMfa.lastUsedStep), lt(userMfa.lastUsedStep, step))))
    .returning({ userId: userMfa.userId });
  return won.length === 1;
}

/** Spends an unused recovery code; false when there is none with this hash. */
export async function spendRecoveryCode(db: Executor, { userId, codeHash, at }: { userId: string; codeHash: string; at: Date }) {
  const spent = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, codeHash), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  return spent.length > 0;
}

export async function findUserName(db: Executor, userId: string) {
  const [named] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  return named?.name ?? null;
}

/** Whether the user has the second factor on, and whether the account requires it. */
export async function findSecondFactorState(db: Executor, { userId, accountId }: { userId: string; accountId: string }) {
  const [row] = await db
    .select({ enabledAt: userMfa.enabledAt, requireMfa: accounts.requireMfa })
    .from(accounts)
    .leftJoin(userMfa, eq(userMfa.userId, userId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row;
}

export async function setAccountRequiresMfa(db: Executor, { accountId, required }: { accountId: string; required: boolean }) {
  await db.update(accounts).set({ requireMfa: required }).where(eq(accounts.id, accountId));
}

export async function accountRequiresMfa(db: Executor, accountId: string) {
  const [row] = await db.select({ requireMfa: accounts.requireMfa }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return row?.requireMfa ?? false;
}

export async function selectMfaEnrolledUserIds(db: Executor, accountId: string) {
  const rows = await db
    .select({ userId: userMfa.userId })
    .from(userMfa)
    .where(and(eq(userMfa.accountId, accountId), isNotNull(userMfa.enabledAt)));
  return rows.map((r) => r.userId);
}
