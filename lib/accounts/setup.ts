import { sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { passwordSchema } from "@/lib/auth/password";
import { ConflictError } from "@/lib/platform/errors";
import type { Locale } from "@/lib/platform/i18n/locales";
import { emailSchema, presentUser, userNameSchema } from "@/lib/auth/user-identity";
import { createAccountWithUser } from "./create-account";

export const setupInput = z.object({
  account_name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  name: userNameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type SetupInput = z.infer<typeof setupInput>;

export async function isSetupDone(): Promise<boolean> {
  const rows = await getDb().select({ one: sql`1` }).from(users).limit(1);
  return rows.length > 0;
}

export const setupDone = () => new ConflictError("Setup is already complete. Sign in instead.");

// Two first-run requests racing must not both create an account.
const SETUP_LOCK = 72_531_002;

/** First run: creates the first account and its administrator, once. */
export async function setupFirstAccount(input: SetupInput, { locale = null }: { locale?: Locale | null } = {}) {
  return getDb().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
    const existing = await tx.select({ one: sql`1` }).from(users).limit(1);
    if (existing.length) throw setupDone();
    const { account, user } = await createAccountWithUser(tx, {
      accountName: input.account_name,
      name: input.name,
      email: input.email,
      password: input.password,
      role: "admin",
      locale,
    });
    return { account: { id: account.id, name: account.name }, user: presentUser(user) };
  });
}
