import "server-only";
import { auditLog } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { AuditLogQuery } from "./schemas";
import { presentAuditEntry } from "./schemas";
import { byAction, byActor, selectAuditLog, since, until } from "./store";

/** The account's audit log, newest first, filtered by actor, action and time. */
export async function listAuditLog({ ctx, query }: { ctx: ServiceContext; query: AuditLogQuery }) {
  return keysetPage(selectAuditLog(ctx.db), {
    table: auditLog,
    accountId: ctx.accountId,
    where: [
      query.actor ? byActor(query.actor) : undefined,
      query.action ? byAction(query.action) : undefined,
      query.from ? since(query.from) : undefined,
      query.to ? until(query.to) : undefined,
    ],
    order: "desc",
    limit: query.limit,
    cursor: query.cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentAuditEntry,
  });
}
