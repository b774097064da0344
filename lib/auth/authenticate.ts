import { decode } from "next-auth/jwt";
import type { Executor } from "@/db";
import { getEnv } from "@/lib/platform/env";
import { ApiError, isDatabaseUnavailable, UnauthenticatedError } from "@/lib/platform/errors";
import { authenticateBearer, type AuthContext, loadTokenContext } from "./tokens";

const SESSION_COOKIES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        // A malformed %-escape is an unreadable cookie: no session (401), not a crash.
        return "";
      }
    }
  }
  return undefined;
}

/** The browser session behind a sign-in cookie, or null when there is none or it is invalid. */
export async function authenticateSessionCookie(db: Executor, cookieHeader: string | null): Promise<AuthContext | null> {
  for (const name of SESSION_COOKIES) {
    const value = readCookie(cookieHeader, name);
    if (!value) continue;
    const claims = await decode({ token: value, secret: getEnv().AUTH_SECRET, salt: name }).catch(() => null);
    if (!claims || typeof claims.tid !== "string" || typeof claims.sub !== "string" || typeof claims.acc !== "string") {
      return null;
    }
    // A session that cannot be loaded is no session; a database that cannot be reached says
    // nothing about the session, and is told as such (a 503 the form or page can wait out),
    // never as being signed out.
    return loadTokenContext(db, { jti: claims.tid, userId: claims.sub, accountId: claims.acc, via: "cookie" }).catch((error) => {
      if (isDatabaseUnavailable(error)) throw error;
      return null;
    });
  }
  return null;
}

/**
 * When the account requires two-factor sign-in, a credential of a user without it, or a session
 * opened without a code, grants nothing: a 403 that says what to do.
 */
function assertSecondFactor(ctx: AuthContext): AuthContext {
  if (ctx.secondFactor === "enrolment_required") {
    throw new ApiError(
      403,
      "mfa_enrollment_required",
      "Your account requires two-factor sign-in: sign in in the browser and set it up in Settings → Account first.",
    );
  }
  if (ctx.secondFactor === "required") {
    if (ctx.token.kind === "session") {
      throw new ApiError(403, "mfa_required", "Your account requires two-factor sign-in: sign in again with the code of your authenticator app.");
    }
    throw new ApiError(
      403,
      "mfa_required",
      ctx.token.kind === "oauth"
        ? "Your account requires two-factor sign-in and this app was authorized without it: sign in with the code of your authenticator app and authorize the app again."
        : "Your account requires two-factor sign-in and this token was created without it: sign in with the code of your authenticator app and create a new token.",
    );
  }
  return ctx;
}

/**
 * Bearer token first, then the browser's sign-in cookie; either must satisfy the two-factor rule.
 * Read through `db`: authentication comes before any verb context exists.
 */
export async function authenticateRequest(db: Executor, req: Request): Promise<AuthContext> {
  const header = req.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new UnauthenticatedError("invalid_token", "Use the header Authorization: Bearer <token>.");
    return assertSecondFactor(await authenticateBearer(db, match[1]));
  }
  const session = await authenticateSessionCookie(db, req.headers.get("cookie"));
  if (session) return assertSecondFactor(session);
  throw new UnauthenticatedError("unauthenticated", "Authentication required: send Authorization: Bearer <token>.");
}
