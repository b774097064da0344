import "server-only";
import { and, desc, eq, gte, lte } from "drizzle-orm";
import { getDb } from "@/db";
import { auditLog } from "@/db/schema";
import { toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { AuditLogQuery } from "./schemas";
import { presentAuditEntry } from "./schemas";

/** The account's audit log, newest first, filtered by actor, action and time. */
export async function listAuditLog({ ctx, query }: { ctx: { accountId: string }; query: AuditLogQuery }) {
  const rows = await getDb()
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.accountId, ctx.accountId),
        query.actor ? eq(auditLog.actorId, query.actor) : undefined,
        query.action ? eq(auditLog.action, query.action) : undefined,
        query.from ? gte(auditLog.createdAt, query.from) : undefined,
        query.to ? lte(auditLog.createdAt, query.to) : undefined,
        afterCursor(auditLog, query.cursor, "desc"),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, (r) => ({ t: r.createdAt, id: r.id }), presentAuditEntry);
}
