import "server-only";
import { NotFoundError } from "@/lib/platform/errors";
import type { ServiceContext } from "@/lib/auth/context";
import { findAccountSummary } from "./store";

export async function getAccountSummary({ ctx }: { ctx: ServiceContext }) {
  const { accountId, db } = ctx;
  const row = await findAccountSummary(db, accountId);
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
