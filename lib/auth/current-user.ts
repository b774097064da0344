import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ForbiddenError } from "@/lib/platform/errors";
import { authenticateSessionCookie } from "./authenticate";
import { DEFAULT_NEXT_PATH, safeNextPath } from "./next-path";
import type { AuthContext } from "./tokens";

/** The signed-in browser session of this request, or null. */
export async function getCurrentSession(): Promise<AuthContext | null> {
  return authenticateSessionCookie((await headers()).get("cookie"));
}

/** For signed-in pages: the session, or a redirect to /login. */
export async function requireSession(): Promise<AuthContext> {
  const session = await getCurrentSession();
  if (!session) {
    // An expired or revoked session comes back to the same page after signing in again.
    const page = safeNextPath((await headers()).get("x-chorus-page"));
    redirect(page === DEFAULT_NEXT_PATH ? "/login" : `/login?next=${encodeURIComponent(page)}`);
  }
  return session;
}

/** For admin-only pages and server actions. */
export async function requireAdmin(): Promise<AuthContext> {
  const session = await requireSession();
  if (session.user.role !== "admin") throw new ForbiddenError("Only administrators can do this.");
  return session;
}
