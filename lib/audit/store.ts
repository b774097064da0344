import { eq, gte, lte, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { auditLog } from "@/db/schema";

// The reads and writes of the audit log (appended to, never updated or deleted).

export async function insertAuditEntry(db: Executor, entry: typeof auditLog.$inferInsert) {
  await db.insert(auditLog).values(entry);
}

/** The audit log, for a keyset page. */
export function selectAuditLog(db: Executor) {
  return db.select().from(auditLog).$dynamic();
}

/** Entries of this actor: a person's id also finds what their API tokens and apps did. */
export const byActor = (actorId: string) => or(eq(auditLog.actorId, actorId), eq(sql`${auditLog.actorVia}->>'user_id'`, actorId));

export const byAction = (action: string) => eq(auditLog.action, action);
export const since = (from: Date) => gte(auditLog.createdAt, from);
export const until = (to: Date) => lte(auditLog.createdAt, to);
