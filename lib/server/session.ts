import "server-only";
import * as session from "@/lib/auth/current-user";
import { type RequestContext, systemContext, verbContext } from "./context";

/**
 * The signed-in browser session of pages and server actions, as the context the verbs take
 * (`verbContext`): the caller, the pool and the automation rules. Same checks and redirects as
 * lib/auth/current-user.ts, which stays below the domains and so cannot build one.
 */
export async function getCurrentSession(): Promise<RequestContext | null> {
  const found = await session.getCurrentSession(systemContext().db);
  return found && verbContext(found);
}

/** `requireSession` of lib/auth/current-user.ts, as a verb context. */
export async function requireSession(options?: { allowEnrolment?: boolean }): Promise<RequestContext> {
  return verbContext(await session.requireSession(systemContext().db, options));
}
