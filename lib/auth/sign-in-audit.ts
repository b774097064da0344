import "server-only";
import type { Executor } from "@/db";
import type { User } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { findUserByEmail } from "./store";

/** A successful sign-in, in the user's account's audit log. */
export async function recordSignIn(db: Executor, { user }: { user: Pick<User, "id" | "name" | "accountId"> }) {
  await recordAudit(db, { accountId: user.accountId, actor: { type: "user", id: user.id, name: user.name }, action: "auth.sign_in", target: { type: "user", id: user.id } });
}

/**
 * A failed sign-in (wrong password or second factor) for an email of a user: recorded in their
 * account, naming the email tried. An unknown email belongs to no account and is not recorded.
 */
export async function recordSignInFailure(db: Executor, { email }: { email: string }) {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await recordAudit(db, { accountId: user.accountId, actor: { type: "anonymous", id: null, name: email.trim().toLowerCase().slice(0, 254) }, action: "auth.sign_in_failed", target: { type: "user", id: user.id } });
}
