"use server";

import { getCurrentSession } from "@/lib/server/session";
import { signOut } from "@/lib/server/next-auth";
import { revokeAllSessions, revokeSession } from "@/lib/auth/sessions";

export async function signOutAction() {
  const session = await getCurrentSession();
  if (session) await revokeSession(session.db, { tokenId: session.token.id });
  await signOut({ redirectTo: "/login" });
}

/** Ends every session of the user: other browsers and session tokens stop working at once. */
export async function signOutEverywhereAction() {
  const session = await getCurrentSession();
  if (session) await revokeAllSessions(session.db, { userId: session.user.id });
  await signOut({ redirectTo: "/login" });
}
