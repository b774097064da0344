import type { Executor } from "@/db";
import { hashPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/scopes";
import type { Locale } from "@/lib/platform/i18n/locales";
import { invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { emailTaken, insertAccount, insertAccountDefaults, insertUser } from "./store";

export async function assertEmailFree(tx: Executor, email: string) {
  if (await emailTaken(tx, email)) throw invalidField("email", "is already used by another user");
}

/** A new tenant: its account, its first user, and the default sandbox number and profile. */
export async function createAccountWithUser(
  tx: Executor,
  input: { accountName: string; name: string; email: string; password: string; role?: Role; locale?: Locale | null },
) {
  await assertEmailFree(tx, input.email);
  const now = new Date();
  const accountId = newId("account", now);
  const account = await insertAccount(tx, { id: accountId, name: input.accountName, createdAt: now });
  const user = await insertUser(tx, {
    id: newId("user", now),
    accountId,
    name: input.name,
    email: input.email.toLowerCase(),
    passwordHash: await hashPassword(input.password),
    role: input.role ?? "admin",
    locale: input.locale ?? null,
    createdAt: now,
    updatedAt: now,
  });
  await insertAccountDefaults(tx, { accountId, name: input.accountName, now });
  return { account, user };
}
