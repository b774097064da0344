import { and, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { type Executor, getDb } from "@/db";
import { apiTokens, oauthGrants, type User, users } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { dummyPasswordHash, verifyPassword } from "./password";
import { scopesForRole } from "./scopes";
import { announceAuthChange } from "./token-cache";
import { SESSION_LIFETIME_MS, signToken } from "./tokens";

/** The user for these credentials, or null; unknown emails cost the same time as wrong passwords. */
export async function verifyCredentials({ email, password }: { email: string; password: string }): Promise<User | null> {
  const [user] = await getDb()
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  return user && ok ? user : null;
}

/**
 * Records a 24 h session for the user and returns its signed token. `secondFactor`: the sign-in
 * checked a code of the user's authenticator app (or a recovery code).
 */
export async function createSession({
  user,
  now = new Date(),
  secondFactor = false,
}: {
  user: Pick<User, "id" | "accountId" | "role">;
  now?: Date;
  secondFactor?: boolean;
}) {
  const id = newId("token", now);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const scopes = scopesForRole(user.role);
  await getDb().insert(apiTokens).values({
    id,
    accountId: user.accountId,
    userId: user.id,
    kind: "session",
    name: "Session",
    scopes,
    expiresAt,
    createdAt: now,
    secondFactorAt: secondFactor ? now : null,
  });
  const token = await signToken({ id, userId: user.id, accountId: user.accountId, kind: "session", scopes, issuedAt: now, expiresAt });
  return { id, token, expiresAt, createdAt: now, scopes };
}

/** Not yet revoked, or refreshed and still in its grace period (revoked_at ahead of `now`). */
const stillValid = (now: Date) => or(isNull(apiTokens.revokedAt), gt(apiTokens.revokedAt, now));

export async function revokeSession({ tokenId }: { tokenId: string }) {
  const now = new Date();
  await getDb().transaction(async (tx) => {
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.kind, "session"), stillValid(now)));
    await announceAuthChange(tx);
  });
}

/**
 * Ends what a signed-in user has handed out: every session but `keep` (browsers, session
 * tokens) and every app's grant (its access and refresh tokens), at once. A new password and
 * "sign out everywhere" call it in their transaction. API tokens are kept: they are revoked
 * one by one, or all at once in Settings → Account. Answers the ids of the apps whose grant ended.
 */
export async function endUserAccess(tx: Executor, { userId, keep, reason }: { userId: string; keep?: string; reason: string }): Promise<string[]> {
  const now = new Date();
  await tx
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.userId, userId), eq(apiTokens.kind, "session"), stillValid(now), keep ? ne(apiTokens.id, keep) : undefined));
  const grants = await tx
    .update(oauthGrants)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(eq(oauthGrants.userId, userId), isNull(oauthGrants.revokedAt)))
    .returning({ appId: oauthGrants.appId });
  // An app's access tokens belong to the user's grants; its refresh tokens die with the grant.
  await tx.update(apiTokens).set({ revokedAt: now }).where(and(eq(apiTokens.userId, userId), eq(apiTokens.kind, "oauth"), isNull(apiTokens.revokedAt)));
  // Cached token state is forgotten here now, and on every instance at commit.
  await announceAuthChange(tx);
  return grants.map((g) => g.appId);
}

/** Signs the user out everywhere: every session (browser or app) and every app's grant stop working at once. */
export async function revokeAllSessions({ userId }: { userId: string }) {
  await getDb().transaction(async (tx) => {
    await endUserAccess(tx, { userId, reason: "signed_out_everywhere" });
  });
}
