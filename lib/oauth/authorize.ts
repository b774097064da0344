import "server-only";
import { jwtVerify, SignJWT } from "jose";
import type { Executor } from "@/db";
import type { OauthApp } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { recordAudit, userActor } from "@/lib/audit/record-audit";
import { deriveKey } from "@/lib/platform/crypto/keys";
import { roleAllows, type Scope, scopes as knownScopes } from "@/lib/auth/scopes";
import type { AuthContext } from "@/lib/auth/tokens";
import { newId } from "@/lib/platform/ids";
import { findAppByClientId } from "./apps";
import { oauthIssuer } from "./metadata";
import { insertCode, insertGrant } from "./store";
import { hashSecret, newSecret } from "@/lib/platform/crypto/secret-hash";

const CODE_LIFETIME_MS = 10 * 60 * 1000;
const CONSENT_AUDIENCE = "chorus-oauth-consent";

export type AuthorizeRequest = {
  app: Pick<OauthApp, "id" | "accountId" | "name" | "clientId">;
  redirectUri: string;
  scopes: Scope[];
  state: string | null;
  codeChallenge: string;
};

export type AuthorizeCheck =
  | { ok: true; request: AuthorizeRequest }
  /**
   * The client or its redirect URI cannot be trusted: say so on the page, never redirect. `reason`
   * names the problem for the page to put in the reader's language.
   */
  | { ok: false; redirect: null; reason: UntrustedReason; message: string }
  /** Anything else goes back to the app as `error=` (RFC 6749 section 4.1.2.1). */
  | { ok: false; redirect: string; message: string };

/** The redirect back to the app carrying an error, with the state it sent and our issuer (RFC 9207). */
export function errorRedirect(redirectUri: string, error: string, description: string, state: string | null): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error);
  url.searchParams.set("error_description", description);
  if (state !== null) url.searchParams.set("state", state);
  url.searchParams.set("iss", oauthIssuer());
  return url.toString();
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Why a request cannot even be sent back to its app. */
export type UntrustedReason = "missing_client_id" | "unknown_client" | "missing_redirect_uri" | "unregistered_redirect_uri" | "other_account" | "repeated_parameter";

/** Checks `GET /oauth/authorize` parameters in the order RFC 6749 asks (client and redirect URI first). */
export async function checkAuthorizeRequest(db: Executor, params: Record<string, string | undefined>, user: Pick<AuthContext["user"], "role"> & { accountId: string }): Promise<AuthorizeCheck> {
  const clientId = params.client_id;
  if (!clientId) return { ok: false, redirect: null, reason: "missing_client_id", message: "The link is missing client_id." };
  const app = await findAppByClientId(db, clientId);
  if (!app) return { ok: false, redirect: null, reason: "unknown_client", message: "No app is registered with this client_id (it may have been deleted)." };
  const redirectUri = params.redirect_uri;
  if (!redirectUri) return { ok: false, redirect: null, reason: "missing_redirect_uri", message: "The link is missing redirect_uri." };
  if (!app.redirectUris.includes(redirectUri)) {
    return { ok: false, redirect: null, reason: "unregistered_redirect_uri", message: "The redirect_uri is not one registered for this app." };
  }
  // Errors go back only to an app of the signed-in user's own account: another account's app
  // could otherwise use this server to send people to its URI with a trusted-looking error.
  if (app.accountId !== user.accountId) {
    return { ok: false, redirect: null, reason: "other_account", message: "This app is registered in another Chorus account: only that account's users can allow it." };
  }
  const state = params.state ?? null;
  const fail = (error: string, message: string): AuthorizeCheck => ({ ok: false, redirect: errorRedirect(redirectUri, error, message, state), message });
  if (params.response_type !== "code") return fail("unsupported_response_type", "response_type must be code.");
  if (!params.code_challenge) return fail("invalid_request", "code_challenge is required (PKCE).");
  if (params.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256.");
  if (!CHALLENGE.test(params.code_challenge)) return fail("invalid_request", "code_challenge must be 43 base64url characters.");
  const requested = (params.scope ?? "").split(" ").filter(Boolean);
  const asked = requested.length ? [...new Set(requested)] : app.allowedScopes;
  const unknown = asked.filter((s) => !(knownScopes as readonly string[]).includes(s) || !app.allowedScopes.includes(s));
  if (unknown.length) return fail("invalid_scope", `The app may not ask for ${unknown.join(", ")}.`);
  const scopes = (asked as Scope[]).filter((s) => roleAllows(user.role, s));
  if (!scopes.length) return fail("invalid_scope", "None of the requested scopes is allowed for the user's role.");
  return {
    ok: true,
    request: { app: { id: app.id, accountId: app.accountId, name: app.name, clientId: app.clientId }, redirectUri, scopes, state, codeChallenge: params.code_challenge },
  };
}

/**
 * The consent page's form carries the checked request, signed and bound to the user, so the
 * decision cannot be forged by another site (it cannot read the page) nor replayed by another user.
 */
export async function signConsent(request: AuthorizeRequest, userId: string): Promise<string> {
  return new SignJWT({ app: request.app.id, cid: request.app.clientId, ru: request.redirectUri, sc: request.scopes, st: request.state, cc: request.codeChallenge })
    .setProtectedHeader({ alg: "HS256" })
    .setAudience(CONSENT_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(deriveKey("jwt"));
}

export type SignedConsent = { clientId: string; redirectUri: string; scopes: Scope[]; state: string | null; codeChallenge: string };

export async function readConsent(token: string, userId: string): Promise<SignedConsent | null> {
  try {
    const { payload } = await jwtVerify(token, deriveKey("jwt"), { algorithms: ["HS256"], audience: CONSENT_AUDIENCE, subject: userId });
    const p = payload as Record<string, unknown>;
    if (typeof p.cid !== "string" || typeof p.ru !== "string" || !Array.isArray(p.sc) || typeof p.cc !== "string") return null;
    return { clientId: p.cid, redirectUri: p.ru, scopes: p.sc as Scope[], state: typeof p.st === "string" ? p.st : null, codeChallenge: p.cc };
  } catch {
    return null;
  }
}

/** The user said yes: a grant and a one-time code (10 minutes) for the app, sent back on its redirect URI. */
export async function approveAuthorization({ ctx, request }: { ctx: ServiceContext<"user" | "token">; request: AuthorizeRequest }): Promise<string> {
  const now = new Date();
  const code = newSecret("chorus_code_");
  await ctx.db.transaction(async (tx) => {
    const grantId = newId("grant", now);
    // The grant (and every token issued from it) has passed the second factor exactly when the approving session had.
    await insertGrant(tx, {
      id: grantId,
      accountId: ctx.accountId,
      appId: request.app.id,
      userId: ctx.user.id,
      scopes: request.scopes,
      secondFactorAt: ctx.token.secondFactorAt,
      createdAt: now,
    });
    await insertCode(tx, {
      codeHash: hashSecret(code),
      accountId: ctx.accountId,
      grantId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS),
      createdAt: now,
    });
    await recordAudit(tx, { accountId: ctx.accountId, actor: userActor(ctx), action: "app.authorized", target: { type: "app", id: request.app.id } });
  });
  const url = new URL(request.redirectUri);
  url.searchParams.set("code", code);
  if (request.state !== null) url.searchParams.set("state", request.state);
  url.searchParams.set("iss", oauthIssuer());
  return url.toString();
}
