import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db";
import { announceAuthChange } from "@/lib/auth/token-cache";
import { type ApiToken, apiTokens, users } from "@/db/schema";
import { keysetPage } from "@/lib/platform/keyset-page";
import { omit } from "@/lib/platform/fields";
import type { CursorPosition } from "@/lib/platform/cursor";
import { ForbiddenError, NotFoundError, UnauthenticatedError } from "@/lib/platform/errors";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { newId } from "@/lib/platform/ids";
import { executorOf } from "./context";
import { roleAllows, type Scope, scopeSchema } from "./scopes";
import { type AuthContext, SESSION_LIFETIME_MS, signToken } from "./tokens";

const DAY_MS = 24 * 60 * 60 * 1000;
// Clock skew between a client that computed "now + 1 day" (or "+ 1 year") and this server.
const SKEW_MS = 60 * 1000;
export const MIN_TOKEN_LIFETIME_MS = DAY_MS;

/** The latest expiry a new token may have: the same instant one calendar year (UTC) later. */
export function maxTokenExpiry(now = new Date()): Date {
  const max = new Date(now);
  max.setUTCFullYear(max.getUTCFullYear() + 1);
  return max;
}

export const isoDateTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z" });

export const createTokenInput = z.object({
  name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  permissions: z
    .array(scopeSchema, { error: "must be a list of scopes" })
    .min(1, "must name at least one scope")
    .transform((list) => [...new Set(list)]),
  expires_at: isoDateTime
    .transform((value) => new Date(value))
    .refine((date) => date.getTime() >= Date.now() + MIN_TOKEN_LIFETIME_MS - SKEW_MS, "must be at least 1 day from now")
    .refine((date) => date.getTime() <= maxTokenExpiry().getTime() + SKEW_MS, "must be at most 1 year from now"),
});
export type CreateTokenInput = z.infer<typeof createTokenInput>;

export const tokenOutput = z.object({
  id: z.string(),
  name: z.string(),
  token_type: z.enum(["api", "session"]),
  permissions: z.array(scopeSchema),
  expires_at: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  user: z.object({ id: z.string(), name: z.string() }).optional(),
});

export function presentToken(row: ApiToken, owner?: { id: string; name: string }) {
  return {
    id: row.id,
    name: row.name,
    token_type: row.kind,
    permissions: row.scopes as Scope[],
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    ...(owner ? { user: owner } : {}),
  };
}

/** Mints an api token with scopes within the caller's role; the token string is returned only here. */
export async function createApiToken({ ctx, input }: { ctx: AuthContext; input: CreateTokenInput }) {
  const outside = input.permissions.filter((scope) => !roleAllows(ctx.user.role, scope));
  if (outside.length) {
    throw new ForbiddenError(
      `The ${ctx.user.role} role cannot grant ${outside.join(", ")}.`,
      outside.map((scope) => ({ path: "permissions", message: `${scope} is outside your role`, scope })),
    );
  }
  const now = new Date();
  const id = newId("token", now);
  const [row] = await getDb()
    .insert(apiTokens)
    .values({
      id,
      accountId: ctx.accountId,
      userId: ctx.user.id,
      kind: "api",
      name: input.name,
      scopes: input.permissions,
      expiresAt: input.expires_at,
      createdAt: now,
    })
    .returning();
  const token = await signToken({
    id,
    userId: ctx.user.id,
    accountId: ctx.accountId,
    kind: "api",
    scopes: input.permissions,
    issuedAt: now,
    expiresAt: input.expires_at,
  });
  await recordAudit(null, { accountId: ctx.accountId, actor: userActor(ctx), action: "token.created", target: { type: "token", id } });
  const { id: tokenId, name, token_type, permissions, expires_at, created_at } = presentToken(row);
  return { id: tokenId, name, token, token_type, permissions, expires_at, created_at };
}

/**
 * The token string of an api token the caller created, signed again from its stored claims:
 * HS256 over the same claims gives the same string, so an Idempotency-Key replay returns the
 * first answer although only the token id was ever stored.
 */
export async function reissueApiToken({ ctx, id }: { ctx: AuthContext; id: string }): Promise<string> {
  const [row] = await getDb()
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.accountId, ctx.accountId), eq(apiTokens.userId, ctx.user.id), eq(apiTokens.kind, "api")))
    .limit(1);
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
  restoreSecret: async (body: Record<string, unknown>, ctx: AuthContext) => ({ ...body, token: await reissueApiToken({ ctx, id: String(body.id) }) }),
};

/**
 * API tokens visible to the caller, newest first. A session sees the user's own tokens, or
 * every token of the account for an administrator. An API token sees only itself, unless its
 * owner is an administrator and it holds `users:read` (a `reports:read` token of an admin
 * must not reveal the account's other tokens).
 */
export async function listApiTokens({ ctx, limit, cursor }: { ctx: AuthContext; limit: number; cursor?: CursorPosition }) {
  const seesAll = ctx.user.role === "admin" && (ctx.token.kind === "session" || ctx.token.scopes.includes("users:read"));
  const onlyItself = ctx.token.kind === "api" && !seesAll;
  return keysetPage(executorOf(ctx).select({ token: apiTokens, owner: { id: users.id, name: users.name } }).from(apiTokens).innerJoin(users, eq(users.id, apiTokens.userId)).$dynamic(), {
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
export async function revokeApiToken({ ctx, id }: { ctx: AuthContext; id: string }) {
  if (ctx.token.kind !== "session" && id !== ctx.token.id) {
    throw new ForbiddenError("Revoking another token requires a signed-in session; an API token can revoke only itself.", [
      { path: "token_type", message: "requires a session token" },
    ]);
  }
  const db = getDb();
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.accountId, ctx.accountId), eq(apiTokens.kind, "api")))
    .limit(1);
  if (!row || (ctx.user.role !== "admin" && row.userId !== ctx.user.id)) throw new NotFoundError("Token");
  if (!row.revokedAt) {
    await db.transaction(async (tx) => {
      await tx.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, id));
      await announceAuthChange(tx);
      await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "token.revoked", target: { type: "token", id } });
    });
  }
}

/** How long a refreshed session stays valid, for a request (or the refresh itself) already in flight. */
export const SESSION_REFRESH_GRACE_MS = 10_000;

/**
 * A new token for the bearer: an api token keeps its permissions and lifetime length
 * (starting now) and the old one is revoked at once; a session gets a fresh 24 h token and
 * the old one is revoked after a 10 s grace. The revocation is conditional: of two refreshes
 * of one api token only the first mints a token (the other is a 401 as if it came after); a
 * session refreshed again within its grace gets the same successor token, never a second
 * one, so a session cannot be multiplied.
 */
export async function refreshToken({ ctx }: { ctx: AuthContext }) {
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
  const outcome = await getDb().transaction(async (tx) => {
    const [old] = await tx
      .update(apiTokens)
      .set(isSession ? { revokedAt: new Date(now.getTime() + SESSION_REFRESH_GRACE_MS), replacedBy: id } : { revokedAt: now })
      .where(and(eq(apiTokens.id, ctx.token.id), isNull(apiTokens.revokedAt)))
      .returning();
    if (!old) {
      if (isSession) {
        const [current] = await tx.select().from(apiTokens).where(eq(apiTokens.id, ctx.token.id)).limit(1);
        const [successor] = current?.replacedBy
          ? await tx.select().from(apiTokens).where(eq(apiTokens.id, current.replacedBy)).limit(1)
          : [];
        if (successor && current.revokedAt && current.revokedAt > now) return { replay: successor, scopes: successor.scopes as Scope[] };
      }
      throw new UnauthenticatedError("invalid_token", "The token has been revoked.");
    }
    if (!isSession) await announceAuthChange(tx);
    await tx.insert(apiTokens).values({
      id,
      accountId: ctx.accountId,
      userId: ctx.user.id,
      kind: ctx.token.kind,
      name: old.name,
      scopes: old.scopes,
      expiresAt,
      createdAt: now,
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

