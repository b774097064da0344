import { authenticateRequest } from "@/lib/auth/authenticate";
import { systemContext } from "@/lib/server/context";
import type { AuthContext } from "@/lib/auth/tokens";
import { getEnv } from "@/lib/platform/env";
import { ApiError, ForbiddenError } from "@/lib/platform/errors";
import { clientAddress } from "@/lib/platform/http/client-address";
import { consumeRequest, type RateLimitState, rateLimitHeaders } from "@/lib/platform/rate-limit";

// Who may call: authentication within the rate budget, cross-site refusal, scope and role.
// Shared by the /v1 wrapper and the plant store wrapper.

/** A 429 carrying the exhausted budget's RateLimit headers and Retry-After. */
function rateLimited(state: RateLimitState) {
  return new ApiError(429, "rate_limited", `Too many requests. Retry in ${state.resetSeconds} s.`, undefined, rateLimitHeaders(state));
}

/** Spends one unit of the caller's address budget (requests made without a valid token). */
export async function spendAddressBudget(req: Request): Promise<RateLimitState> {
  const state = await consumeRequest(`ip:${clientAddress(req)}`);
  if (state.limited) throw rateLimited(state);
  return state;
}

/**
 * Authenticates the request and spends one unit of its rate budget: the token's, or the
 * caller's address when authentication fails (so guessing tokens is throttled too).
 * `onLimit` receives the budget either way, for the RateLimit headers.
 */
export async function authenticateWithinLimit(req: Request, onLimit: (state: RateLimitState) => void): Promise<AuthContext> {
  let ctx: AuthContext;
  try {
    ctx = await authenticateRequest(systemContext().db, req);
  } catch (error) {
    const state = await consumeRequest(`ip:${clientAddress(req)}`);
    onLimit(state);
    if (state.limited) throw rateLimited(state);
    throw error;
  }
  const state = await consumeRequest(`token:${ctx.token.id}`);
  onLimit(state);
  if (state.limited) throw rateLimited(state);
  if (ctx.via === "cookie") refuseCrossSiteWrite(req);
  return ctx;
}

/**
 * A browser sends its sign-in cookie along with requests another site starts, so a write made
 * with the cookie (every method but GET and HEAD) must come from this app's own pages: a
 * foreign `Origin`, or `Sec-Fetch-Site: cross-site`, is a 403. Bearer tokens are never sent
 * by a browser on its own, so they need no such check.
 */
function refuseCrossSiteWrite(req: Request) {
  if (req.method === "GET" || req.method === "HEAD") return;
  const refuse = (why: string) => {
    throw new ForbiddenError(`Cross-site request refused: ${why}. Write requests signed in by cookie must come from this app's pages.`, [
      { path: "origin", message: why },
    ]);
  };
  if (req.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") refuse("Sec-Fetch-Site is cross-site");
  const origin = req.headers.get("origin");
  if (origin === null) return;
  const own = new Set([new URL(getEnv().APP_URL).origin, new URL(req.url).origin]);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (host) {
    const proto = req.headers.get("x-forwarded-proto") ?? new URL(req.url).protocol.replace(":", "");
    own.add(`${proto}://${host}`);
  }
  if (!own.has(origin)) refuse(`Origin ${origin.slice(0, 100)} is not this app`);
}

export { authorize } from "@/lib/auth/authorize";
