import { recordAudit } from "@/lib/audit/record-audit";
import "server-only";
import { errors as joseErrors, decodeJwt } from "jose";
import type { Executor } from "@/db";
import type { OauthApp, oauthGrants } from "@/db/schema";
import { insertToken } from "@/lib/auth/store";
import { type Scope, scopes as knownScopes, roleAllows } from "@/lib/auth/scopes";
import { signToken } from "@/lib/auth/tokens";
import { newId } from "@/lib/platform/ids";
import { findAppByClientId, revokeGrants } from "./apps";
import { findAccessToken, findCode, findGrant, findRefreshToken, findUserRole, insertRefreshToken, revokeAccessToken, spendCode, spendRefreshToken } from "./store";
import { hashSecret, newSecret, s256, secretMatches } from "@/lib/platform/crypto/secret-hash";

const ACCESS_TOKEN_LIFETIME_S = 60 * 60;
const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/** An error of the token and revocation endpoints, answered as RFC 6749 section 5.2 says. */
export class OAuthError extends Error {
  constructor(
    readonly error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "unsupported_token_type",
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : 400,
  ) {
    super(description);
  }
}

export type ClientCredentials = { clientId: string; clientSecret: string | null; method: "client_secret_basic" | "client_secret_post" | "none" };

const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, " "));

/** The client's credentials from HTTP Basic (form-encoded parts, RFC 6749 section 2.3.1) or the form. */
export function readClientCredentials(authorization: string | null, form: URLSearchParams): ClientCredentials {
  if (authorization) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (!match) throw new OAuthError("invalid_client", "The Authorization header must be HTTP Basic with the client id and secret.");
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError("invalid_client", "The Authorization header must carry client_id:client_secret.");
    if (form.has("client_secret")) throw new OAuthError("invalid_request", "Send the client secret in one place only.");
    let credentials: ClientCredentials;
    try {
      credentials = { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)), method: "client_secret_basic" };
    } catch {
      throw new OAuthError("invalid_request", "The Authorization header has a malformed %-escape.");
    }
    if (`${credentials.clientId}${credentials.clientSecret}`.includes("\u0000")) {
      throw new OAuthError("invalid_request", "The Authorization header must not contain a NUL character.");
    }
    return credentials;
  }
  const clientId = form.get("client_id");
  if (!clientId) throw new OAuthError("invalid_client", "Client authentication is required: send client_id (and client_secret for a confidential client).");
  const clientSecret = form.get("client_secret");
  return { clientId, clientSecret, method: clientSecret === null ? "none" : "client_secret_post" };
}

/**
 * The app behind these credentials: a confidential client must prove its secret, a public one
 * has none. Read through `db`: the client is known before any verb context.
 */
export async function authenticateClient(db: Executor, credentials: ClientCredentials): Promise<OauthApp> {
  const app = await findAppByClientId(db, credentials.clientId);
  if (!app) throw new OAuthError("invalid_client", "Unknown client.");
  if (app.clientType === "confidential") {
    if (credentials.clientSecret === null || !secretMatches(credentials.clientSecret, app.clientSecretHash)) {
      throw new OAuthError("invalid_client", "The client secret is missing or wrong.");
    }
  } else if (credentials.clientSecret !== null && credentials.clientSecret !== "") {
    throw new OAuthError("invalid_client", "A public client has no secret.");
  }
  return app;
}

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (!value) throw new OAuthError("invalid_request", `${name} is required.`);
  return value;
}

type Grant = typeof oauthGrants.$inferSelect;

/** A 1 h access token (JWT, typ "oauth") and a new refresh token for the grant. */
async function issueTokens(tx: Executor, { app, grant, scopes }: { app: OauthApp; grant: Grant; scopes: Scope[] }) {
  const now = new Date();
  const id = newId("token", now);
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_S * 1000);
  await insertToken(tx, {
    id,
    accountId: grant.accountId,
    userId: grant.userId,
    kind: "oauth",
    name: app.name,
    scopes,
    oauthGrantId: grant.id,
    expiresAt,
    createdAt: now,
    secondFactorAt: grant.secondFactorAt,
  });
  const refreshToken = newSecret("chorus_refresh_");
  await insertRefreshToken(tx, {
    tokenHash: hashSecret(refreshToken),
    accountId: grant.accountId,
    grantId: grant.id,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    createdAt: now,
  });
  const accessToken = await signToken({ id, userId: grant.userId, accountId: grant.accountId, kind: "oauth", scopes, issuedAt: now, expiresAt });
  return { access_token: accessToken, token_type: "Bearer" as const, expires_in: ACCESS_TOKEN_LIFETIME_S, refresh_token: refreshToken, scope: scopes.join(" ") };
}

/** The grant's user must still exist; the scopes are what their role allows today. */
async function liveGrantScopes(tx: Executor, grant: Grant): Promise<Scope[]> {
  const user = await findUserRole(tx, grant.userId);
  if (!user || user.deletedAt) throw new OAuthError("invalid_grant", "The user of this grant no longer exists.");
  const known = new Set<string>(knownScopes);
  const scopes = (grant.scopes.filter((s) => known.has(s)) as Scope[]).filter((s) => roleAllows(user.role, s));
  if (!scopes.length) throw new OAuthError("invalid_grant", "The user's role no longer allows any scope of this grant.");
  return scopes;
}

/** grant_type=authorization_code: the code works once, within 10 minutes, with its redirect URI and PKCE verifier. */
export async function exchangeCode(db: Executor, { app, form }: { app: OauthApp; form: URLSearchParams }) {
  const code = required(form, "code");
  const redirectUri = required(form, "redirect_uri");
  const verifier = required(form, "code_verifier");
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) throw new OAuthError("invalid_request", "code_verifier must be 43 to 128 unreserved characters (RFC 7636).");
  const outcome = await db.transaction(async (tx) => {
    // The code is spent by the first attempt, whatever its outcome: a guessed verifier gets one try.
    const spent = await spendCode(tx, hashSecret(code));
    if (!spent) {
      const earlier = await findCode(tx, hashSecret(code));
      if (!earlier) return { error: "The authorization code is not valid." };
      // A code presented twice may have been stolen: the tokens issued from it end (RFC 6749 section 4.1.2).
      const owner = await findGrant(tx, earlier.grantId);
      if (owner?.appId === app.id) await revokeGrants(tx, { grantId: earlier.grantId }, "code_reused");
      return { error: "The authorization code was already used." };
    }
    const grant = await findGrant(tx, spent.grantId);
    if (!grant || grant.appId !== app.id) return { error: "The authorization code was issued to another client." };
    if (grant.revokedAt) return { error: "The grant has been revoked." };
    if (spent.expiresAt.getTime() <= Date.now()) return { error: "The authorization code has expired." };
    if (spent.redirectUri !== redirectUri) return { error: "redirect_uri does not match the one of the authorization request." };
    if (s256(verifier) !== spent.codeChallenge) return { error: "code_verifier does not match the code_challenge." };
    return { tokens: await issueTokens(tx, { app, grant, scopes: await liveGrantScopes(tx, grant) }) };
  });
  if ("error" in outcome) throw new OAuthError("invalid_grant", outcome.error ?? "invalid grant");
  return outcome.tokens;
}

/**
 * grant_type=refresh_token: each refresh token works once and is replaced (rotation). A refresh
 * token presented again means two parties hold it: the whole grant is revoked.
 */
export async function exchangeRefreshToken(db: Executor, { app, form }: { app: OauthApp; form: URLSearchParams }) {
  const presented = required(form, "refresh_token");
  const narrowed = form.get("scope");
  const outcome = await db.transaction(async (tx) => {
    const row = await findRefreshToken(tx, hashSecret(presented));
    if (!row) return { error: "The refresh token is not valid." };
    const grant = await findGrant(tx, row.grantId);
    if (!grant || grant.appId !== app.id) return { error: "The refresh token was issued to another client." };
    if (grant.revokedAt) return { error: "The grant has been revoked." };
    const spent = await spendRefreshToken(tx, row.tokenHash);
    if (!spent) {
      await revokeGrants(tx, { grantId: grant.id }, "refresh_token_reused");
      // A replayed refresh token may be stolen: the grant's end is recorded, by the system.
      await recordAudit(tx, {
        accountId: grant.accountId,
        actor: { type: "system", id: null, name: null },
        action: "app.grant_revoked_reuse",
        target: { type: "app", id: grant.appId },
      });
      return { error: "The refresh token was already used; the grant has been revoked.", commit: true };
    }
    if (row.expiresAt.getTime() <= Date.now()) return { error: "The refresh token has expired." };
    let scopes = await liveGrantScopes(tx, grant);
    if (narrowed !== null) {
      const asked = [...new Set(narrowed.split(" ").filter(Boolean))];
      const extra = asked.filter((s) => !scopes.includes(s as Scope));
      // Refused before anything changes: the refresh token stays usable (the transaction is undone).
      if (extra.length) throw new OAuthError("invalid_scope", `The grant does not include ${extra.join(", ")}.`);
      if (asked.length) scopes = asked as Scope[];
    }
    return { tokens: await issueTokens(tx, { app, grant, scopes }) };
  });
  if ("error" in outcome) throw new OAuthError("invalid_grant", outcome.error ?? "invalid grant");
  return outcome.tokens;
}

/**
 * RFC 7009: a refresh token ends its whole grant, an access token only itself. Unknown tokens
 * and tokens of other clients are ignored (the answer is the same 200).
 */
export async function revokeOAuthToken(db: Executor, { app, form }: { app: OauthApp; form: URLSearchParams }) {
  const token = required(form, "token");
  await db.transaction(async (tx) => {
    const refresh = await findRefreshToken(tx, hashSecret(token));
    if (refresh) {
      const grant = await findGrant(tx, refresh.grantId);
      if (grant?.appId === app.id) await revokeGrants(tx, { grantId: refresh.grantId }, "revoked_by_app");
      return;
    }
    let jti: unknown;
    try {
      ({ jti } = decodeJwt(token));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return;
      throw error;
    }
    if (typeof jti !== "string") return;
    const row = await findAccessToken(tx, jti);
    if (row?.appId === app.id) await revokeAccessToken(tx, row.id);
  });
}
