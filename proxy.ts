import { type NextRequest, NextResponse } from "next/server";
import { apiOfPath, BAD_REQUEST_PAGE, hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from "@/lib/platform/http/malformed-path";
import { commonSecurityHeaders, pageContentSecurityPolicy } from "@/lib/platform/http/security-headers";

// Invitation and reset links are opened signed out; the OAuth endpoints are called by apps.
const PUBLIC_PAGES = ["/login", "/setup", "/invite", "/reset-password", "/oauth/token", "/oauth/revoke", "/oauth/consent", "/.well-known"];
// Route handlers (and files) answer for themselves (401, 405 with Allow…); they get the common headers only.
const API_PREFIXES = ["/v1", "/api", "/plant-store", "/healthz"];
// Pages are read (GET, HEAD) and run their server actions (POST).
const PAGE_METHODS = "GET, HEAD, POST";

const isHttps = () => (process.env.APP_URL ?? "").startsWith("https://");

function withHeaders(response: NextResponse, headers: Record<string, string>) {
  for (const [key, value] of Object.entries(headers)) response.headers.set(key, value);
  return response;
}
// Read by requireSession (lib/auth/current-user.ts).
const PAGE_PATH_HEADER = "x-chorus-page";

/**
 * Security headers on every response; for pages a fresh CSP nonce per request, a 405 for
 * methods pages do not serve, and signed-out visitors sent to /login. The cookie is only
 * looked for here; the signed-in layout verifies it (and its revocation) against the database.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const common = commonSecurityHeaders({ https: isHttps() });
  const isApi = API_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));
  // Routing decodes the path: one that does not decode is a 400 here, before it is routed.
  const malformed = hasMalformedEscape(pathname);
  if (malformed && isApi) {
    // One route answers for the API the address was sent to (error body, request id, rate budget).
    const url = request.nextUrl.clone();
    url.pathname = MALFORMED_PATH_ROUTE;
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set(MALFORMED_PATH_HEADER, apiOfPath(pathname) ?? "app");
    return withHeaders(NextResponse.rewrite(url, { request: { headers: requestHeaders } }), common);
  }
  if (!malformed && (isApi || /\.\w+$/.test(pathname))) {
    return withHeaders(NextResponse.next(), common);
  }

  const method = request.headers.get("x-chorus-original-method") ?? request.method;
  if (!PAGE_METHODS.split(", ").includes(request.method)) {
    const requestId = request.headers.get("x-request-id")?.match(/^[\w.:-]{1,128}$/)?.[0] ?? `req_${crypto.randomUUID().replace(/-/g, "")}`;
    const body = { error: { code: "method_not_allowed", message: `${method} is not allowed here. Allowed: ${PAGE_METHODS}.` }, request_id: requestId };
    return withHeaders(NextResponse.json(body, { status: 405 }), { ...common, Allow: PAGE_METHODS, "X-Request-Id": requestId });
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageContentSecurityPolicy({ nonce, dev: process.env.NODE_ENV === "development", oauthConsent: pathname.startsWith("/oauth/") });
  const headers = { ...common, "Content-Security-Policy": csp };

  if (malformed) {
    // The app's 400 page, at the address asked for.
    const url = request.nextUrl.clone();
    url.pathname = BAD_REQUEST_PAGE;
    url.search = "";
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("Content-Security-Policy", csp);
    return withHeaders(NextResponse.rewrite(url, { status: 400, request: { headers: requestHeaders } }), headers);
  }

  const hasSession = request.cookies.has("authjs.session-token") || request.cookies.has("__Secure-authjs.session-token");
  if (!hasSession && !PUBLIC_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`)) && pathname !== "/") {
    const url = request.nextUrl.clone();
    url.pathname = "/login";
    url.search = `?next=${encodeURIComponent(pathname + search)}`;
    return withHeaders(NextResponse.redirect(url), headers);
  }
  // Next.js reads the nonce from the request's CSP header and puts it on its own scripts.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  // The page's own address, so that a session found expired later can come back to it after sign-in.
  requestHeaders.set(PAGE_PATH_HEADER, pathname + search);
  requestHeaders.set("Content-Security-Policy", csp);
  return withHeaders(NextResponse.next({ request: { headers: requestHeaders } }), headers);
}

export const config = {
  // Everything but Next.js's static files: pages get their CSP, APIs the common headers.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
