import { randomBytes } from "node:crypto";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { createAccountWithUser } from "@/lib/accounts/create-account";
import { hashPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/scopes";
import { createSession } from "@/lib/auth/sessions";
import { authenticateBearer } from "@/lib/auth/tokens";
import { newId } from "@/lib/platform/ids";
import { systemContext, verbContext } from "@/lib/server/context";

export const TEST_PASSWORD = "correct horse battery";

const unique = () => randomBytes(4).toString("hex");

/** A fresh tenant with an admin signed in through a session token. */
export async function createTestAccount(name = `Test Co ${unique()}`) {
  const db = getDb();
  const { account, user } = await db.transaction((tx) =>
    createAccountWithUser(tx, { accountName: name, name: "Ada Admin", email: `admin-${unique()}@example.com`, password: TEST_PASSWORD, role: "admin" }),
  );
  const session = await createSession(systemContext().db, { user });
  return { account, admin: user, adminToken: session.token };
}

/** Another user of an account, with a session token. */
export async function addTestUser(accountId: string, role: Role, name = role === "admin" ? "Second Admin" : "Alex Agent") {
  const now = new Date();
  const [user] = await getDb()
    .insert(users)
    .values({
      id: newId("user", now),
      accountId,
      name,
      email: `${role}-${unique()}@example.com`,
      passwordHash: await hashPassword(TEST_PASSWORD),
      role,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  const session = await createSession(systemContext().db, { user });
  return { user, token: session.token };
}

/** The verb context of a bearer token's caller, as the /v1 wrapper builds it. */
export async function bearerContext(token: string) {
  return verbContext(await authenticateBearer(systemContext().db, token));
}
