import "server-only";
import { eq, gte, lte, or, sql } from "drizzle-orm";
import { auditLog } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { AuditLogQuery } from "./schemas";
import { presentAuditEntry } from "./schemas";

/** The account's audit log, newest first, filtered by actor, action and time. */
export async function listAuditLog({ ctx, query }: { ctx: ServiceContext; query: AuditLogQuery }) {
  return keysetPage(ctx.db.select().from(auditLog).$dynamic(), {
    table: auditLog,
    accountId: ctx.accountId,
    where: [
      // A person's id also finds what their API tokens and apps did.
      query.actor ? or(eq(auditLog.actorId, query.actor), eq(sql`${auditLog.actorVia}->>'user_id'`, query.actor)) : undefined,
      query.action ? eq(auditLog.action, query.action) : undefined,
      query.from ? gte(auditLog.createdAt, query.from) : undefined,
      query.to ? lte(auditLog.createdAt, query.to) : undefined,
    ],
    order: "desc",
    limit: query.limit,
    cursor: query.cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentAuditEntry,
  });
}
