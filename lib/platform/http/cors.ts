/**
 * Cross-origin access for browser apps that hold a token (public OAuth clients, single-page apps):
 * the token and revocation endpoints, the authorization-server metadata, and /v1 when the request
 * carries a bearer token. The answer is always `Access-Control-Allow-Origin: *` and never allows
 * credentials, so a browser refuses any cross-origin request that carries cookies: a session
 * cookie is never usable from another site. A /v1 request without a bearer token (a cookie only)
 * gets no approval at all.
 */

type CorsPolicy = { methods: string; bearerOnly: boolean };

const POLICIES: { path: string; prefix: boolean; policy: CorsPolicy }[] = [
  { path: "/oauth/token", prefix: false, policy: { methods: "POST", bearerOnly: false } },
  { path: "/oauth/revoke", prefix: false, policy: { methods: "POST", bearerOnly: false } },
  { path: "/.well-known/oauth-authorization-server", prefix: false, policy: { methods: "GET, HEAD", bearerOnly: false } },
  { path: "/v1", prefix: true, policy: { methods: "GET, HEAD, POST, PUT, PATCH, DELETE", bearerOnly: true } },
];

/** Request headers a browser app may send (beyond the CORS-safelisted ones). */
const CORS_ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id, If-None-Match, Last-Event-ID, Content-Encoding";
/** Response headers a browser app may read (beyond the CORS-safelisted ones). */
const CORS_EXPOSED_HEADERS =
  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, Idempotent-Replayed, Location, ETag";
/** How long a browser may reuse a preflight answer, in seconds. */
const CORS_MAX_AGE = 600;

function policyOf(pathname: string): CorsPolicy | null {
  for (const { path, prefix, policy } of POLICIES) {
    if (pathname === path || (prefix && pathname.startsWith(`${path}/`))) return policy;
  }
  return null;
}

const hasBearer = (headers: Headers) => /^Bearer\s+\S/i.test(headers.get("authorization") ?? "");

/**
 * The answer to a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method), or null
 * when the request is not one this policy approves (it then gets the route's usual 405). On /v1
 * the preflight must announce an Authorization header: only bearer requests are approved.
 */
export function corsPreflightHeaders(method: string, pathname: string, headers: Headers): Record<string, string> | null {
  if (method !== "OPTIONS" || !headers.get("origin")) return null;
  const requested = headers.get("access-control-request-method");
  const policy = policyOf(pathname);
  if (!requested || !policy) return null;
  if (!policy.methods.split(", ").includes(requested.toUpperCase())) return null;
  if (policy.bearerOnly) {
    const announced = (headers.get("access-control-request-headers") ?? "").split(",").map((h) => h.trim().toLowerCase());
    if (!announced.includes("authorization")) return null;
  }
  return {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": `${policy.methods}, OPTIONS`,
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    "Access-Control-Max-Age": String(CORS_MAX_AGE),
  };
}

/**
 * The CORS headers of an actual (non-preflight) response, or none. The OAuth endpoints and the
 * metadata answer every request with them, with an Origin or without: the metadata may be cached,
 * and a copy cached for a request without Origin must serve a browser app too. /v1 approves only
 * a request from another origin that carries a bearer token.
 */
export function corsResponseHeaders(pathname: string, headers: Headers): Record<string, string> {
  const policy = policyOf(pathname);
  if (!policy) return {};
  if (policy.bearerOnly && (!headers.get("origin") || !hasBearer(headers))) return {};
  return { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS };
}
