import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, businessProfiles, notifications, numberIntegrations, users } from "@/db/schema";

// The reads and writes of the accounts themselves.

/** Whether any user exists yet (the first run is over). */
export async function anyUserExists(db: Executor) {
  const rows = await db.select({ one: sql`1` }).from(users).limit(1);
  return rows.length > 0;
}

/** Held until the transaction ends: first-run requests racing go one at a time. */
export async function lockFirstRun(tx: Executor, lock: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${lock})`);
}

/** The account with its number and how many people it has (admins among them). */
export async function findAccountSummary(db: Executor, accountId: string) {
  const [row] = await db
    .select({
      id: accounts.id,
      name: accounts.name,
      createdAt: accounts.createdAt,
      phoneNumber: numberIntegrations.phoneNumber,
      provider: numberIntegrations.provider,
      status: numberIntegrations.status,
      coexistence: numberIntegrations.coexistence,
      total: sql<number>`(select count(*)::int from ${users} where ${and(eq(users.accountId, accounts.id), isNull(users.deletedAt))})`,
      admins: sql<number>`(select count(*)::int from ${users} where ${and(eq(users.accountId, accounts.id), isNull(users.deletedAt), eq(users.role, "admin"))})`,
    })
    .from(accounts)
    .leftJoin(numberIntegrations, eq(numberIntegrations.accountId, accounts.id))
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row;
}

/** Whether a live user has this email (any case). */
export async function emailTaken(db: Executor, email: string) {
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.deletedAt} is null`)
    .limit(1);
  return taken.length > 0;
}

export async function insertAccount(db: Executor, values: typeof accounts.$inferInsert) {
  const [account] = await db.insert(accounts).values(values).returning();
  return account;
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert) {
  const [user] = await db.insert(users).values(values).returning();
  return user;
}

/** What a new account starts with: its profile under its name, and the sandbox number. */
export async function insertAccountDefaults(db: Executor, { accountId, name, now }: { accountId: string; name: string; now: Date }) {
  await db.insert(businessProfiles).values({ accountId, name, updatedAt: now });
  await db.insert(numberIntegrations).values({ accountId, provider: "sandbox", status: "sandbox", updatedAt: now });
}

export async function selectAdminIds(db: Executor, accountId: string) {
  const admins = await db.select({ id: users.id }).from(users).where(and(eq(users.accountId, accountId), eq(users.role, "admin"), isNull(users.deletedAt)));
  return admins.map((admin) => admin.id);
}

export async function insertNotifications(db: Executor, rows: (typeof notifications.$inferInsert)[]) {
  if (rows.length) await db.insert(notifications).values(rows);
}
