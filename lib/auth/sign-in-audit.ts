import "server-only";
import { and, isNull, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { type User, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";

/** A successful sign-in, in the user's account's audit log. */
export async function recordSignIn({ user }: { user: Pick<User, "id" | "name" | "accountId"> }) {
  await recordAudit(null, { accountId: user.accountId, actor: { type: "user", id: user.id, name: user.name }, action: "auth.sign_in", target: { type: "user", id: user.id } });
}

/**
 * A failed sign-in (wrong password or second factor) for an email of a user: recorded in their
 * account, naming the email tried. An unknown email belongs to no account and is not recorded.
 */
export async function recordSignInFailure({ email }: { email: string }) {
  const [user] = await getDb()
    .select({ id: users.id, accountId: users.accountId })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.deletedAt)))
    .limit(1);
  if (!user) return;
  await recordAudit(null, { accountId: user.accountId, actor: { type: "anonymous", id: null, name: email.trim().toLowerCase().slice(0, 254) }, action: "auth.sign_in_failed", target: { type: "user", id: user.id } });
}
