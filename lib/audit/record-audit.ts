import { getDb, type Executor } from "@/db";
import { auditLog } from "@/db/schema";
import { currentRequestInfo, type RequestInfo } from "@/lib/platform/http/request-info";
import { newId } from "@/lib/platform/ids";
import type { AuditAction } from "./actions";

export type AuditActor = { type: "user" | "app" | "system" | "anonymous"; id: string | null; name: string | null };
export type AuditTarget = { type: string; id: string } | null;

/** The acting user of a request context (or the system, for work without one), as the audit log names them. */
export function actorOf(ctx: object): AuditActor {
  const user = (ctx as { user?: { id: string; name: string } }).user;
  return user ? userActor({ user }) : { type: "system", id: null, name: null };
}

/** The acting user of a request context, as the audit log names them. */
export function userActor(ctx: { user: { id: string; name: string } }): AuditActor {
  return { type: "user", id: ctx.user.id, name: ctx.user.name };
}

/**
 * Appends one entry to the account's audit log, in the caller's transaction when given so
 * the entry commits (or not) with the change. Entries are never updated or deleted.
 */
export async function recordAudit(
  tx: Executor | null,
  entry: { accountId: string; actor: AuditActor; action: AuditAction; target?: AuditTarget; request?: RequestInfo; at?: Date },
) {
  const request = entry.request ?? currentRequestInfo();
  const at = entry.at ?? new Date();
  await (tx ?? getDb()).insert(auditLog).values({
    id: newId("audit", at),
    accountId: entry.accountId,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    ip: request.ip,
    userAgent: request.userAgent,
    createdAt: at,
  });
}
