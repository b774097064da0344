import "server-only";
import { ForbiddenError, UnauthenticatedError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import type { ServiceContext } from "./context";
import type { Scope } from "./scopes";
import { findToken, insertToken, revokeForRenewal } from "./store";
import { announceAuthChange } from "./token-cache";
import { type AuthContext, SESSION_LIFETIME_MS, signToken } from "./tokens";

/** How long a refreshed session stays valid, for a request (or the refresh itself) already in flight. */
const SESSION_REFRESH_GRACE_MS = 10_000;

/**
 * A new token for the bearer: an api token keeps its permissions and lifetime length
 * (starting now) and the old one is revoked at once; a session gets a fresh 24 h token and
 * the old one is revoked after a 10 s grace. The revocation is conditional: of two refreshes
 * of one api token only the first mints a token (the other is a 401 as if it came after); a
 * session refreshed again within its grace gets the same successor token, never a second
 * one, so a session cannot be multiplied.
 */
export async function refreshToken({ ctx }: { ctx: ServiceContext<"user" | "token"> }) {
  if (ctx.token.kind === "oauth") {
    throw new ForbiddenError("An app's access token is renewed with its refresh token at POST /oauth/token.", [
      { path: "token_type", message: "oauth tokens renew at /oauth/token" },
    ]);
  }
  const now = new Date();
  const id = newId("token", now);
  const isSession = ctx.token.kind === "session";
  const lifetime = isSession ? SESSION_LIFETIME_MS : ctx.token.expiresAt.getTime() - ctx.token.createdAt.getTime();
  const expiresAt = new Date(now.getTime() + lifetime);
  const outcome = await ctx.db.transaction(async (tx) => {
    const old = await revokeForRenewal(
      tx,
      isSession ? { id: ctx.token.id, revokedAt: new Date(now.getTime() + SESSION_REFRESH_GRACE_MS), replacedBy: id } : { id: ctx.token.id, revokedAt: now },
    );
    if (!old) {
      if (isSession) {
        const current = await findToken(tx, ctx.token.id);
        const successor = current?.replacedBy ? await findToken(tx, current.replacedBy) : undefined;
        if (successor && current.revokedAt && current.revokedAt > now) return { replay: successor, scopes: successor.scopes as Scope[] };
      }
      throw new UnauthenticatedError("invalid_token", "The token has been revoked.");
    }
    if (!isSession) await announceAuthChange(tx);
    await insertToken(tx, {
      id,
      accountId: ctx.accountId,
      userId: ctx.user.id,
      kind: ctx.token.kind,
      name: old.name,
      scopes: old.scopes,
      expiresAt,
      createdAt: now,
      // A renewed session has passed the second factor exactly when the old one had.
      secondFactorAt: old.secondFactorAt,
    });
    return { replay: undefined, scopes: old.scopes as Scope[] };
  });
  const row = outcome.replay
    ? { id: outcome.replay.id, scopes: outcome.scopes, createdAt: outcome.replay.createdAt, expiresAt: outcome.replay.expiresAt }
    : { id, scopes: outcome.scopes, createdAt: now, expiresAt };
  // HS256 over the same claims gives the same string: a retry within the grace gets the same token.
  const token = await signToken({
    id: row.id,
    userId: ctx.user.id,
    accountId: ctx.accountId,
    kind: ctx.token.kind,
    scopes: row.scopes,
    issuedAt: row.createdAt,
    expiresAt: row.expiresAt,
  });
  return {
    token,
    token_type: ctx.token.kind,
    permissions: isSession ? ctx.token.scopes : row.scopes,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

export function describeToken(ctx: AuthContext) {
  return {
    valid: true as const,
    token_type: ctx.token.kind,
    permissions: ctx.token.scopes,
    expires_at: ctx.token.expiresAt.toISOString(),
    created_at: ctx.token.createdAt.toISOString(),
  };
}
