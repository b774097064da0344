import { z } from "zod";
import type { Executor } from "@/db";
import { passwordSchema } from "@/lib/auth/password";
import { ConflictError } from "@/lib/platform/errors";
import type { Locale } from "@/lib/platform/i18n/locales";
import { emailSchema, presentUser, userNameSchema } from "@/lib/auth/user-identity";
import { createAccountWithUser } from "./create-account";
import { anyUserExists, lockFirstRun } from "./store";

// The first run comes before any account: these take the executor (`db`) the entry point holds.

export const setupInput = z.object({
  account_name: z.string().trim().min(1, "is required").max(100, "must be at most 100 characters"),
  name: userNameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type SetupInput = z.infer<typeof setupInput>;

export async function isSetupDone(db: Executor): Promise<boolean> {
  return anyUserExists(db);
}

export const setupDone = () => new ConflictError("Setup is already complete. Sign in instead.");

// Two first-run requests racing must not both create an account.
const SETUP_LOCK = 72_531_002;

/** First run: creates the first account and its administrator, once. */
export async function setupFirstAccount(db: Executor, input: SetupInput, { locale = null }: { locale?: Locale | null } = {}) {
  return db.transaction(async (tx) => {
    await lockFirstRun(tx, SETUP_LOCK);
    if (await anyUserExists(tx)) throw setupDone();
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
