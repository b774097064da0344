import { type NextRequest, NextResponse } from "next/server";

const PUBLIC_PAGES = ["/login", "/setup"];
// Read by requireSession (lib/auth/current-user.ts).
const PAGE_PATH_HEADER = "x-chorus-page";

/**
 * Signed-out visitors of app pages go to /login. This only looks for the cookie;
 * the signed-in layout verifies it (and its revocation) against the database.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const hasSession = request.cookies.has("authjs.session-token") || request.cookies.has("__Secure-authjs.session-token");
  if (hasSession || PUBLIC_PAGES.some((p) => pathname === p || pathname.startsWith(`${p}/`)) || pathname === "/") {
    // The page's own address, so that a session found expired later can come back to it after sign-in.
    const headers = new Headers(request.headers);
    headers.set(PAGE_PATH_HEADER, pathname + search);
    return NextResponse.next({ request: { headers } });
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
