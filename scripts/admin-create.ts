import { parseArgs } from "node:util";
import { eq, or } from "drizzle-orm";
import { z } from "zod";
import { closeDb, getDb, getDbHandle } from "@/db";
import { accounts, users } from "@/db/schema";
import { assertEmailFree, createAccountWithUser } from "@/lib/accounts/create-account";
import { hashPassword, passwordSchema } from "@/lib/auth/password";
import { roleSchema } from "@/lib/auth/scopes";
import { ApiError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { emailSchema, userNameSchema } from "@/lib/auth/user-identity";

const usage =
  "Usage: npm run admin:create -- --email E --password P --name N [--account A] [--role admin|agent]\n" +
  "Run it while the server is stopped (the embedded database has one owner at a time).";

const input = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: userNameSchema,
  account: z.string().trim().min(1).max(100).optional(),
  role: roleSchema.default("admin"),
});

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      account: { type: "string" },
      role: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return console.log(usage);
  const parsed = input.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    console.error(`--${String(issue.path[0])}: ${issue.message}\n${usage}`);
    process.exit(2);
  }
  const { email, password, name, account, role } = parsed.data;
  await getDbHandle().migrate();
  const db = getDb();
  const result = await db.transaction(async (tx) => {
    const existing = account
      ? await tx.select().from(accounts).where(or(eq(accounts.id, account), eq(accounts.name, account))).limit(2)
      : await tx.select().from(accounts).limit(2);
    if (existing.length === 0) {
      const created = await createAccountWithUser(tx, { accountName: account ?? "Chorus", name, email, password, role });
      return { ...created, newAccount: true };
    }
    if (existing.length > 1) throw new Error("Several accounts match; name one with --account <id>.");
    await assertEmailFree(tx, email);
    const now = new Date();
    const [user] = await tx
      .insert(users)
      .values({ id: newId("user", now), accountId: existing[0].id, name, email, passwordHash: await hashPassword(password), role, createdAt: now, updatedAt: now })
      .returning();
    return { account: existing[0], user, newAccount: false };
  });
  console.log(
    `${result.newAccount ? "Created account" : "Using account"} ${result.account.name} (${result.account.id}); ` +
      `created ${result.user.role} ${result.user.email} (${result.user.id}).`,
  );
}

main()
  .catch((error) => {
    console.error(error instanceof ApiError || error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(() => closeDb());
