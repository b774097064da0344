import { type NextRequest, NextResponse } from "next/server";
import { corsPreflightHeaders, corsResponseHeaders } from "@/lib/platform/http/cors";
import { safeNextPath } from "@/lib/auth/next-path";
import { apiOfPath, BAD_REQUEST_PAGE, hasMalformedEscape, MALFORMED_PATH_HEADER, MALFORMED_PATH_ROUTE } from "@/lib/platform/http/malformed-path";
import { commonSecurityHeaders, pageContentSecurityPolicy } from "@/lib/platform/http/security-headers";
import { consentFormTargets, parseParameters } from "@/lib/oauth/parameters";
import { RAW_QUERY_HEADER } from "@/lib/platform/http/request-hook";

// Invitation and reset links are opened signed out; the OAuth endpoints are called by apps.
const PUBLIC_PAGES = ["/login", "/setup", "/invite", "/reset-password", "/oauth/token", "/oauth/revoke", "/oauth/consent", "/.well-known"];
// Route handlers (and files) answer for themselves (401, 405 with Allow…); they get the common headers only.
const API_PREFIXES = ["/v1", "/api", "/plant-store", "/healthz", "/readyz"];
// Pages are read (GET, HEAD) and run their server actions (POST).
const PAGE_METHODS = "GET, HEAD, POST";
// The OAuth consent page: its CSP lets its form lead to the app's redirect_uri, and a document
// keeps the CSP it was loaded with, so it is never reached by a client-side navigation.
const CONSENT_PAGE = "/oauth/authorize";

/**
 * A fetch by the app's client-side router rather than a document load: Next.js hides its own
 * request headers from the proxy, so this goes by what the browser says. A navigation is
 * `Sec-Fetch-Dest: document`; the router's fetches are not, and the one that follows a server
 * action's redirect asks for Flight (`text/x-component`).
 */
function isRouterFetch(request: NextRequest): boolean {
  const dest = request.headers.get("sec-fetch-dest");
  return (dest !== null && dest !== "document") || (request.headers.get("accept") ?? "").includes("text/x-component");
}

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
  const method = request.headers.get("x-chorus-original-method") ?? request.method;
  const preflight = corsPreflightHeaders(method, pathname, request.headers);
  if (preflight) return withHeaders(new NextResponse(null, { status: 204 }), { ...commonSecurityHeaders({ https: isHttps() }), ...preflight });
  const common = { ...commonSecurityHeaders({ https: isHttps() }), ...corsResponseHeaders(pathname, request.headers) };

  // OAuth parameters are read as the RFC says (form-encoded): a malformed one is the client's error.
  if (pathname.startsWith("/oauth/")) {
    const query = parseParameters(request.headers.get(RAW_QUERY_HEADER) ?? search.slice(1));
    if (!query.ok) {
      const body = { error: "invalid_request", error_description: query.problem };
      return withHeaders(NextResponse.json(body, { status: 400 }), { ...common, "Cache-Control": "no-store" });
    }
  }

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

  if (!PAGE_METHODS.split(", ").includes(request.method)) {
    const requestId = request.headers.get("x-request-id")?.match(/^[\w.:-]{1,128}$/)?.[0] ?? `req_${crypto.randomUUID().replace(/-/g, "")}`;
    const body = { error: { code: "method_not_allowed", message: `${method} is not allowed here. Allowed: ${PAGE_METHODS}.` }, request_id: requestId };
    return withHeaders(NextResponse.json(body, { status: 405 }), { ...common, Allow: PAGE_METHODS, "X-Request-Id": requestId });
  }

  const consentPage = pathname === CONSENT_PAGE;
  if (consentPage && isRouterFetch(request)) {
    // Not a Flight answer: the router (a link, or the redirect after signing in) loads the page whole.
    return withHeaders(new NextResponse("Open this page as a document.", { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } }), {
      ...common,
      "Cache-Control": "no-store",
      Vary: "Sec-Fetch-Dest, Accept",
    });
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageContentSecurityPolicy({ nonce, dev: process.env.NODE_ENV === "development", formTargets: consentPage ? consentFormTargets(search.slice(1)) : [] });
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
    url.search = `?next=${encodeURIComponent(safeNextPath(pathname + search))}`;
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
