import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { accounts, numberIntegrations, users } from "@/db/schema";
import { NotFoundError } from "@/lib/platform/errors";
import type { ServiceContext } from "@/lib/auth/context";

export async function getAccountSummary({ ctx }: { ctx: ServiceContext }) {
  const { accountId, db } = ctx;
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
  if (!row) throw new NotFoundError("Account");
  return {
    id: row.id,
    name: row.name,
    phone_number: row.phoneNumber ?? null,
    number_status: row.status ?? "sandbox",
    coexistence: row.coexistence ?? false,
    created_at: row.createdAt.toISOString(),
    users: { total: row.total, admins: row.admins, agents: row.total - row.admins },
  };
}
