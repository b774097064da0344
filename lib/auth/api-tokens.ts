import "server-only";
import { eq } from "drizzle-orm";
import type { ServiceContext } from "./context";
import { announceAuthChange } from "@/lib/auth/token-cache";
import { apiTokens } from "@/db/schema";
import { keysetPage } from "@/lib/platform/keyset-page";
import { omit } from "@/lib/platform/fields";
import type { CursorPosition } from "@/lib/platform/cursor";
import { ForbiddenError, NotFoundError } from "@/lib/platform/errors";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { newId } from "@/lib/platform/ids";
import { roleAllows, type Scope } from "./scopes";
import { findApiToken, insertToken, selectTokensWithOwner, revokeOwnApiTokens, revokeToken, selectOwnLiveApiTokens } from "./store";
import { signToken } from "./tokens";
import { type CreateTokenInput, presentToken } from "./token-schemas";

/** Mints an api token with scopes within the caller's role; the token string is returned only here. */
export async function createApiToken({ ctx, input }: { ctx: ServiceContext<"user" | "token">; input: CreateTokenInput }) {
  const outside = input.permissions.filter((scope) => !roleAllows(ctx.user.role, scope));
  if (outside.length) {
    throw new ForbiddenError(
      `The ${ctx.user.role} role cannot grant ${outside.join(", ")}.`,
      outside.map((scope) => ({ path: "permissions", message: `${scope} is outside your role`, scope })),
    );
  }
  const now = new Date();
  const id = newId("token", now);
  const row = await insertToken(ctx.db, {
    id,
    accountId: ctx.accountId,
    userId: ctx.user.id,
    kind: "api",
    name: input.name,
    scopes: input.permissions,
    expiresAt: input.expires_at,
    createdAt: now,
    // The token has passed the second factor exactly when the credential creating it had.
    secondFactorAt: ctx.token.secondFactorAt,
  });
  const token = await signToken({
    id,
    userId: ctx.user.id,
    accountId: ctx.accountId,
    kind: "api",
    scopes: input.permissions,
    issuedAt: now,
    expiresAt: input.expires_at,
  });
  await recordAudit(ctx.db, { accountId: ctx.accountId, actor: userActor(ctx), action: "token.created", target: { type: "token", id } });
  const { id: tokenId, name, token_type, permissions, expires_at, created_at } = presentToken(row);
  return { id: tokenId, name, token, token_type, permissions, expires_at, created_at };
}

/**
 * The token string of an api token the caller created, signed again from its stored claims:
 * HS256 over the same claims gives the same string, so an Idempotency-Key replay returns the
 * first answer although only the token id was ever stored.
 */
async function reissueApiToken({ ctx, id }: { ctx: ServiceContext<"user">; id: string }): Promise<string> {
  const row = await findApiToken(ctx.db, { accountId: ctx.accountId, id, userId: ctx.user.id });
  if (!row) throw new NotFoundError("Token");
  return signToken({
    id: row.id,
    userId: row.userId,
    accountId: row.accountId,
    kind: "api",
    scopes: row.scopes as Scope[],
    issuedAt: row.createdAt,
    expiresAt: row.expiresAt,
  });
}

/** Idempotency storage of a token creation: the answer is kept without the token string. */
export const tokenCreationSecrets = {
  withoutSecret: (body: Record<string, unknown>) => omit(body, "token"),
  restoreSecret: async (body: Record<string, unknown>, ctx: ServiceContext<"user">) => ({ ...body, token: await reissueApiToken({ ctx, id: String(body.id) }) }),
};

/**
 * API tokens visible to the caller, newest first. A session sees the user's own tokens, or
 * every token of the account for an administrator. An API token sees only itself, unless its
 * owner is an administrator and it holds `users:read` (a `reports:read` token of an admin
 * must not reveal the account's other tokens).
 */
export async function listApiTokens({ ctx, limit, cursor }: { ctx: ServiceContext<"user" | "token">; limit: number; cursor?: CursorPosition }) {
  const seesAll = ctx.user.role === "admin" && (ctx.token.kind === "session" || ctx.token.scopes.includes("users:read"));
  const onlyItself = ctx.token.kind === "api" && !seesAll;
  return keysetPage(selectTokensWithOwner(ctx.db), {
    table: apiTokens,
    accountId: ctx.accountId,
    where: [eq(apiTokens.kind, "api"), onlyItself ? eq(apiTokens.id, ctx.token.id) : seesAll ? undefined : eq(apiTokens.userId, ctx.user.id)],
    order: "desc",
    limit,
    cursor,
    position: (r) => ({ t: r.token.createdAt, id: r.token.id }),
    present: (r) => presentToken(r.token, r.owner),
  });
}

/**
 * Revokes an api token. A session revokes the user's own tokens (an administrator's, any of
 * the account); an api token may revoke only itself, so a leaked token cannot revoke others.
 */
export async function revokeApiToken({ ctx, id }: { ctx: ServiceContext<"user" | "token">; id: string }) {
  if (ctx.token.kind !== "session" && id !== ctx.token.id) {
    throw new ForbiddenError("Revoking another token requires a signed-in session; an API token can revoke only itself.", [
      { path: "token_type", message: "requires a session token" },
    ]);
  }
  const row = await findApiToken(ctx.db, { accountId: ctx.accountId, id });
  if (!row || (ctx.user.role !== "admin" && row.userId !== ctx.user.id)) throw new NotFoundError("Token");
  if (!row.revokedAt) {
    await ctx.db.transaction(async (tx) => {
      await revokeToken(tx, id, new Date());
      await announceAuthChange(tx);
      await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "token.revoked", target: { type: "token", id } });
    });
  }
}

/** The user's own live API tokens (not revoked, not expired), newest first: for Settings → Account. */
export async function listOwnApiTokens({ ctx }: { ctx: ServiceContext<"user"> }) {
  const rows = await selectOwnLiveApiTokens(ctx.db, { accountId: ctx.accountId, userId: ctx.user.id, now: new Date() });
  return rows.map((row) => presentToken(row));
}

/** Revokes every live API token of the signed-in user at once; answers how many. */
export async function revokeAllOwnApiTokens({ ctx }: { ctx: ServiceContext<"user"> }) {
  return ctx.db.transaction(async (tx) => {
    const revoked = await revokeOwnApiTokens(tx, { accountId: ctx.accountId, userId: ctx.user.id, now: new Date() });
    if (revoked.length) await announceAuthChange(tx);
    for (const { id } of revoked) {
      await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "token.revoked", target: { type: "token", id } });
    }
    return revoked.length;
  });
}
