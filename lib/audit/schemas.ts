import { z } from "zod";
import type { AuditLogRow } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";
import { auditActions } from "./actions";

const instant = (name: string) =>
  z.iso
    .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-11-23T00:00:00Z" })
    .transform((value) => new Date(value))
    .optional()
    .meta({ description: `Only entries at or ${name === "from" ? "after" : "before"} this instant (ISO 8601).`, example: "2026-11-23T00:00:00Z" });

/** `GET /v1/audit-log` */
export const auditLogQuery = paginationQuery.extend({
  actor: z.string().trim().min(1).max(64).optional().meta({ description: "Only entries by this actor id (a user id, an app id).", example: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  action: z.enum(auditActions, { error: `must be one of ${auditActions.join(", ")}` }).optional().meta({ description: "Only entries of this action." }),
  from: instant("from"),
  to: instant("to"),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

export const auditEntryOutput = z
  .strictObject({
    id: prefixedId("audit"),
    actor: z.strictObject({
      type: z.enum(["user", "app", "system", "anonymous"]).meta({ description: "`anonymous` for a failed sign-in; `app` for an OAuth app acting for a user." }),
      id: z.string().nullable(),
      name: z.string().nullable().meta({ description: "The actor's name when the entry was written (the email tried, for a failed sign-in)." }),
    }),
    action: z.enum(auditActions),
    target: z.strictObject({ type: z.string(), id: z.string() }).nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: isoTimestamp(),
  })
  .meta({ id: "AuditEntry", description: "One entry of the account's audit log. Entries are never changed or removed." });
export type AuditEntryOutput = z.infer<typeof auditEntryOutput>;

export function presentAuditEntry(row: AuditLogRow): AuditEntryOutput {
  return {
    id: row.id,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action as AuditEntryOutput["action"],
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  };
}
