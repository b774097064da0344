import { type NextRequest, NextResponse } from "next/server";

// Invitation and reset links are opened signed out; the OAuth endpoints are called by apps.
const PUBLIC_PAGES = ["/login", "/setup", "/invite", "/reset-password", "/oauth/token", "/oauth/revoke", "/oauth/consent", "/.well-known"];

/**
 * Signed-out visitors of app pages go to /login. This only looks for the cookie;
 * the signed-in layout verifies it (and its revocation) against the database.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const hasSession = request.cookies.has("authjs.session-token") || request.cookies.has("__Secure-authjs.session-token");
  if (hasSession || PUBLIC_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`)) || pathname === "/") {
    return NextResponse.next();
  }
  const url = request.nextUrl.clone();
  url.pathname = "/login";
  url.search = `?next=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: APIs answer 401 themselves, and static assets stay public.
  matcher: ["/((?!v1|api|plant-store|healthz|_next|favicon.ico|.*\\.[\\w]+$).*)"],
};
