import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Executor } from "@/db";
import { UnauthenticatedError } from "@/lib/platform/errors";
import { deriveKey } from "@/lib/platform/crypto/keys";
import { noteTokenUse, selectTokenRows } from "./store";
import { cachedToken } from "./token-cache";
import { type Role, roleAllows, type Scope, scopes as allScopes, scopesForRole } from "./scopes";

export const TOKEN_ISSUER = "chorus";
export const TOKEN_AUDIENCE = "chorus-api";
export const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type TokenKind = "api" | "session" | "oauth";

/**
 * Whether the credential satisfies the account's two-factor rule: `ok`, or the account requires
 * it and the user has not set it up (`enrolment_required`), or this browser/app session was
 * opened without the second factor (`required`: sign in again with a code).
 */
type SecondFactorState = "ok" | "enrolment_required" | "required";

export type AuthContext = {
  accountId: string;
  user: { id: string; name: string; email: string; role: Role };
  token: {
    id: string;
    kind: TokenKind;
    /** The name its owner gave an API token ("Session" for sessions). */
    name: string;
    /** The OAuth app an `oauth` token was issued to. */
    app?: { id: string; name: string };
    scopes: Scope[];
    expiresAt: Date;
    createdAt: Date;
    /**
     * When the credential's issuer proved the second factor: a session by a code at sign-in or
     * by confirming the set-up; an API token or app grant inherits it from the session that
     * created it, and a renewal from the token it renews. Null when it never did.
     */
    secondFactorAt: Date | null;
  };
  via: "bearer" | "cookie";
  secondFactor: SecondFactorState;
};

export async function signToken(input: {
  id: string;
  userId: string;
  accountId: string;
  kind: TokenKind;
  scopes: Scope[];
  issuedAt: Date;
  expiresAt: Date;
}): Promise<string> {
  return new SignJWT({ acc: input.accountId, typ: input.kind, scope: input.scopes.join(" ") })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(input.userId)
    .setJti(input.id)
    .setIssuedAt(Math.floor(input.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(input.expiresAt.getTime() / 1000))
    .sign(deriveKey("jwt"));
}

type Claims = { jti: string; sub: string; acc: string; typ: TokenKind };

/**
 * Tokens whose signature this process has checked, with their expiry: a signature check is
 * most of the cost of a request that needs nothing else, and the same token string always
 * checks the same way under the same key. Revocation and the owner's state are not cached
 * here (see loadTokenContext); expiry is checked on every use.
 */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { claims: Claims; exp: number; key: Buffer }>();

async function verifySignature(token: string): Promise<Claims> {
  const key = deriveKey("jwt");
  const known = verified.get(token);
  if (known && known.key === key) {
    // As jose counts it: expired from the second of `exp` on.
    if (Math.floor(Date.now() / 1000) < known.exp) return known.claims;
    verified.delete(token);
    throw new UnauthenticatedError("invalid_token", "The token has expired.");
  }
  const checked = await checkSignature(token, key);
  verified.set(token, checked);
  if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  return checked.claims;
}

async function checkSignature(token: string, key: Buffer): Promise<{ claims: Claims; exp: number; key: Buffer }> {
  try {
    // The algorithm is pinned: alg=none or any other algorithm is refused by jose.
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ["jti", "sub", "exp", "iat"],
    });
    const { jti, sub, acc, typ } = payload as Record<string, unknown>;
    if (
      typeof jti !== "string" ||
      typeof sub !== "string" ||
      typeof acc !== "string" ||
      (typ !== "api" && typ !== "session" && typ !== "oauth")
    ) {
      throw new UnauthenticatedError("invalid_token", "The token is malformed.");
    }
    return { claims: { jti, sub, acc, typ }, exp: payload.exp!, key };
  } catch (error) {
    if (error instanceof UnauthenticatedError) throw error;
    if (error instanceof joseErrors.JWTExpired) {
      throw new UnauthenticatedError("invalid_token", "The token has expired.");
    }
    throw new UnauthenticatedError("invalid_token", "The token is invalid.");
  }
}

type TokenRow = Awaited<ReturnType<typeof selectTokenRows>>[number];

/**
 * Reads of the database (not the cache) asked for in the same turn of the event loop go in one
 * query: every live event stream of an account checks its token before each event, and 500
 * streams must not cost 500 round trips per event.
 */
const FRESH_BATCH = 500;
type Waiters = Map<string, { resolve: (row: TokenRow | undefined) => void; reject: (error: unknown) => void }[]>;
// Per executor (in practice the pool): a batch reads through the executor its callers hold.
let freshWaiting = new Map<Executor, Waiters>();
function loadFresh(db: Executor, id: string): Promise<TokenRow | undefined> {
  return new Promise((resolve, reject) => {
    if (freshWaiting.size === 0) setImmediate(readFreshBatches);
    const batch = freshWaiting.get(db) ?? new Map();
    freshWaiting.set(db, batch);
    const waiters = batch.get(id) ?? [];
    waiters.push({ resolve, reject });
    batch.set(id, waiters);
  });
}
function readFreshBatches() {
  const batches = freshWaiting;
  freshWaiting = new Map();
  for (const [db, batch] of batches) void readFreshBatch(db, batch);
}
async function readFreshBatch(db: Executor, batch: Waiters) {
  const ids = [...batch.keys()];
  for (let start = 0; start < ids.length; start += FRESH_BATCH) {
    const part = ids.slice(start, start + FRESH_BATCH);
    try {
      const rows = new Map((await selectTokenRows(db, part)).map((row) => [row.id, row]));
      for (const id of part) for (const waiter of batch.get(id)!) waiter.resolve(rows.has(id) ? { ...rows.get(id)! } : undefined);
    } catch (error) {
      for (const id of part) for (const waiter of batch.get(id)!) waiter.reject(error);
    }
  }
}

const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Checks a token id against its stored row and the owner's current state in one
 * round trip at most (none while the row is cached, see token-cache.ts). Revoked, deleted, expired tokens and deleted users are refused at once.
 */
export async function loadTokenContext(db: Executor, input: {
  jti: string;
  userId: string;
  accountId: string;
  via: AuthContext["via"];
  /** Read the database, not the process's cache (the event stream re-checks a long-lived connection). */
  fresh?: boolean;
}): Promise<AuthContext> {
  const load = async (): Promise<TokenRow | undefined> => (await selectTokenRows(db, [input.jti]))[0];
  const row = input.fresh ? await loadFresh(db, input.jti) : await cachedToken(input.jti, load);

  if (!row || row.userId !== input.userId || row.accountId !== input.accountId) {
    throw new UnauthenticatedError("invalid_token", "The token is not recognised.");
  }
  const now = new Date();
  // A refreshed session carries a revocation time a few seconds ahead (its grace period).
  if (row.revokedAt && row.revokedAt <= now) throw new UnauthenticatedError("invalid_token", "The token has been revoked.");
  if (row.deletedAt) throw new UnauthenticatedError("invalid_token", "The token's user no longer exists.");
  // A browser session's lifetime is carried by its signed cookie, which next-auth renews
  // while the user is active; bearer tokens expire with their row.
  if (input.via === "bearer" && row.expiresAt <= now) throw new UnauthenticatedError("invalid_token", "The token has expired.");

  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    // Bookkeeping only: not awaited, so verification stays one round trip. The person's
    // activity (what turns `online` into `away` when it stops) is noted at the same granularity.
    void noteTokenUse(db, { tokenId: row.id, userId: row.userId, now, granularityMs: LAST_USED_GRANULARITY_MS }).catch(() => {});
    row.lastUsedAt = now;
  }

  const role = row.role as Role;
  const known = new Set<string>(allScopes);
  const stored = row.scopes.filter((s) => known.has(s)) as Scope[];
  // An app's grant is intersected with what the user's role allows now, on every request.
  const tokenScopes =
    row.kind === "session" ? scopesForRole(role) : row.kind === "oauth" ? stored.filter((s) => roleAllows(role, s)) : stored;

  return {
    accountId: row.accountId,
    user: { id: row.userId, name: row.name, email: row.email, role },
    token: {
      id: row.id,
      kind: row.kind,
      name: row.tokenName,
      ...(row.kind === "oauth" && row.appId ? { app: { id: row.appId, name: row.appName ?? "App" } } : {}),
      scopes: tokenScopes,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
      secondFactorAt: row.secondFactorAt,
    },
    via: input.via,
    secondFactor: secondFactorState(row),
  };
}

/**
 * While the account requires two-factor sign-in: the user must have it set up, and every
 * credential must have been issued by a session that proved it (a code at sign-in, or the
 * set-up confirmed in that session). An API token or app grant created by a session without
 * it stays refused, even after the user sets it up: whoever held only the password then may
 * hold the token.
 */
function secondFactorState(row: { requireMfa: boolean; mfaEnabledAt: Date | null; secondFactorAt: Date | null }): SecondFactorState {
  if (!row.requireMfa) return "ok";
  if (!row.mfaEnabledAt) return "enrolment_required";
  if (!row.secondFactorAt) return "required";
  return "ok";
}

/** The caller behind a bearer token, read through `db` (authentication comes before any verb context). */
export async function authenticateBearer(db: Executor, token: string): Promise<AuthContext> {
  const claims = await verifySignature(token);
  return loadTokenContext(db, { jti: claims.jti, userId: claims.sub, accountId: claims.acc, via: "bearer" });
}
