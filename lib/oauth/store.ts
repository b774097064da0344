import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { apiTokens, oauthApps, oauthCodes, oauthGrants, oauthRefreshTokens, users } from "@/db/schema";

// The reads and writes of OAuth apps, their grants, codes and refresh tokens.

export async function insertApp(db: Executor, values: typeof oauthApps.$inferInsert) {
  const [row] = await db.insert(oauthApps).values(values).returning();
  return row;
}

/** Apps, for a keyset page. */
export function selectApps(db: Executor) {
  return db.select().from(oauthApps).$dynamic();
}

/** Marks a live app of the account deleted; false when there is none. */
export async function softDeleteApp(db: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await db
    .update(oauthApps)
    .set({ deletedAt: new Date() })
    .where(and(eq(oauthApps.id, id), eq(oauthApps.accountId, accountId), isNull(oauthApps.deletedAt)))
    .returning({ id: oauthApps.id });
  return Boolean(row);
}

/** A live app by its client id (any account: the client id alone names it). */
export async function findLiveAppByClientId(db: Executor, clientId: string) {
  const [row] = await db
    .select()
    .from(oauthApps)
    .where(and(eq(oauthApps.clientId, clientId), isNull(oauthApps.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Ends the live grants of an app (or one grant) and their access tokens; answers how many grants. */
export async function revokeGrantRows(db: Executor, where: { appId: string } | { grantId: string }, reason: string, now: Date) {
  const revoked = await db
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and("appId" in where ? eq(oauthGrants.appId, where.appId) : eq(oauthGrants.id, where.grantId), isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id });
  for (const { id } of revoked) {
    await db.update(apiTokens).set({ revokedAt: now }).where(and(eq(apiTokens.oauthGrantId, id), isNull(apiTokens.revokedAt)));
  }
  return revoked.length;
}

export async function findGrant(db: Executor, id: string) {
  const [grant] = await db.select().from(oauthGrants).where(eq(oauthGrants.id, id)).limit(1);
  return grant;
}

/** A live grant of the user in the account. */
export async function findLiveUserGrant(db: Executor, { accountId, userId, grantId }: { accountId: string; userId: string; grantId: string }) {
  const [grant] = await db
    .select({ appId: oauthGrants.appId })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.accountId, accountId), eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .limit(1);
  return grant;
}

/** The user's live grants to apps not deleted, newest first. */
export function selectLiveUserGrants(db: Executor, { accountId, userId }: { accountId: string; userId: string }) {
  return db
    .select({ grant: oauthGrants, app: { id: oauthApps.id, name: oauthApps.name, redirectUris: oauthApps.redirectUris } })
    .from(oauthGrants)
    .innerJoin(oauthApps, eq(oauthApps.id, oauthGrants.appId))
    .where(and(eq(oauthGrants.accountId, accountId), eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt), isNull(oauthApps.deletedAt)))
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id))
    .limit(100);
}

export async function insertGrant(db: Executor, values: typeof oauthGrants.$inferInsert) {
  await db.insert(oauthGrants).values(values);
}

export async function insertCode(db: Executor, values: typeof oauthCodes.$inferInsert) {
  await db.insert(oauthCodes).values(values);
}

/** Spends an unused code; undefined when there is none with this hash. */
export async function spendCode(db: Executor, codeHash: string) {
  const [spent] = await db
    .update(oauthCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
    .returning();
  return spent;
}

export async function findCode(db: Executor, codeHash: string) {
  const [code] = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).limit(1);
  return code;
}

export async function insertRefreshToken(db: Executor, values: typeof oauthRefreshTokens.$inferInsert) {
  await db.insert(oauthRefreshTokens).values(values);
}

export async function findRefreshToken(db: Executor, tokenHash: string) {
  const [row] = await db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, tokenHash)).limit(1);
  return row;
}

/** Spends an unused refresh token; undefined when it was used already. */
export async function spendRefreshToken(db: Executor, tokenHash: string) {
  const [spent] = await db
    .update(oauthRefreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oauthRefreshTokens.tokenHash, tokenHash), isNull(oauthRefreshTokens.usedAt)))
    .returning();
  return spent;
}

/** The user's role, and whether they were deleted. */
export async function findUserRole(db: Executor, userId: string) {
  const [user] = await db.select({ role: users.role, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

/** An app's access token, with the app its grant belongs to. */
export async function findAccessToken(db: Executor, id: string) {
  const [row] = await db
    .select({ id: apiTokens.id, grantId: apiTokens.oauthGrantId, appId: oauthGrants.appId })
    .from(apiTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, apiTokens.oauthGrantId))
    .where(and(eq(apiTokens.id, id), eq(apiTokens.kind, "oauth")))
    .limit(1);
  return row;
}

/** Ends one access token (unless ended already). */
export async function revokeAccessToken(db: Executor, id: string) {
  await db.update(apiTokens).set({ revokedAt: new Date() }).where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)));
}
