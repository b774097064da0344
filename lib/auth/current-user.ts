import "server-only";
import { headers } from "next/headers";
import type { Executor } from "@/db";
import { redirect } from "next/navigation";
import { ForbiddenError } from "@/lib/platform/errors";
import { authenticateSessionCookie } from "./authenticate";
import { DEFAULT_NEXT_PATH, safeNextPath } from "./next-path";
import type { AuthContext } from "./tokens";

/** The signed-in browser session of this request, or null (whatever its two-factor state); read through `db`. */
export async function getCurrentSession(db: Executor): Promise<AuthContext | null> {
  return authenticateSessionCookie(db, (await headers()).get("cookie"));
}

const withNext = (path: string, page: string) => (page === DEFAULT_NEXT_PATH ? path : `${path}?next=${encodeURIComponent(page)}`);

/**
 * For signed-in pages and their server actions: the session, or a redirect. Signed out (or the
 * session ended): to /login, coming back to the same page after. When the account requires
 * two-factor sign-in: a user who has not set it up goes to its set-up first
 * (`allowEnrolment` for that page and its actions), and a session opened without a code signs in again.
 */
export async function requireSession(db: Executor, { allowEnrolment = false }: { allowEnrolment?: boolean } = {}): Promise<AuthContext> {
  const session = await getCurrentSession(db);
  const page = safeNextPath((await headers()).get("x-chorus-page"));
  if (!session || session.secondFactor === "required") redirect(withNext("/login", page));
  if (session.secondFactor === "enrolment_required" && !allowEnrolment) redirect(withNext("/login/two-factor", page));
  return session;
}

/** For admin-only pages and server actions. */
export async function requireAdmin(db: Executor): Promise<AuthContext> {
  const session = await requireSession(db);
  if (session.user.role !== "admin") throw new ForbiddenError("Only administrators can do this.");
  return session;
}
