import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, businessProfiles, numberIntegrations, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/scopes";
import type { Locale } from "@/lib/platform/i18n/locales";
import { invalidField } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";

export async function assertEmailFree(tx: Executor, email: string) {
  const taken = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.deletedAt} is null`)
    .limit(1);
  if (taken.length) throw invalidField("email", "is already used by another user");
}

/** A new tenant: its account, its first user, and the default sandbox number and profile. */
export async function createAccountWithUser(
  tx: Executor,
  input: { accountName: string; name: string; email: string; password: string; role?: Role; locale?: Locale | null },
) {
  await assertEmailFree(tx, input.email);
  const now = new Date();
  const accountId = newId("account", now);
  const [account] = await tx.insert(accounts).values({ id: accountId, name: input.accountName, createdAt: now }).returning();
  const [user] = await tx
    .insert(users)
    .values({
      id: newId("user", now),
      accountId,
      name: input.name,
      email: input.email.toLowerCase(),
      passwordHash: await hashPassword(input.password),
      role: input.role ?? "admin",
      locale: input.locale ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await tx.insert(businessProfiles).values({ accountId, name: input.accountName, updatedAt: now });
  await tx.insert(numberIntegrations).values({ accountId, provider: "sandbox", status: "sandbox", updatedAt: now });
  return { account, user };
}
