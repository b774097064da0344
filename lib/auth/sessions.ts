import type { Executor } from "@/db";
import type { User } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { dummyPasswordHash, verifyPassword } from "./password";
import { scopesForRole } from "./scopes";
import { findUserByEmail, insertToken, revokeSessionToken, revokeUserAccess } from "./store";
import { announceAuthChange } from "./token-cache";
import { SESSION_LIFETIME_MS, signToken } from "./tokens";

// Sign-in comes before any verb context: these take the executor (`db`) the entry point holds.

/** The user for these credentials, or null; unknown emails cost the same time as wrong passwords. */
export async function verifyCredentials(db: Executor, { email, password }: { email: string; password: string }): Promise<User | null> {
  const user = await findUserByEmail(db, email);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  return user && ok ? user : null;
}

/**
 * Records a 24 h session for the user and returns its signed token. `secondFactor`: the sign-in
 * checked a code of the user's authenticator app (or a recovery code).
 */
export async function createSession(
  db: Executor,
  {
    user,
    now = new Date(),
    secondFactor = false,
  }: {
    user: Pick<User, "id" | "accountId" | "role">;
    now?: Date;
    secondFactor?: boolean;
  },
) {
  const id = newId("token", now);
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const scopes = scopesForRole(user.role);
  await insertToken(db, {
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

export async function revokeSession(db: Executor, { tokenId }: { tokenId: string }) {
  const now = new Date();
  await db.transaction(async (tx) => {
    await revokeSessionToken(tx, tokenId, now);
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
  const appIds = await revokeUserAccess(tx, { userId, keep, reason, now: new Date() });
  // Cached token state is forgotten here now, and on every instance at commit.
  await announceAuthChange(tx);
  return appIds;
}

/** Signs the user out everywhere: every session (browser or app) and every app's grant stop working at once. */
export async function revokeAllSessions(db: Executor, { userId }: { userId: string }) {
  await db.transaction(async (tx) => {
    await endUserAccess(tx, { userId, reason: "signed_out_everywhere" });
  });
}
