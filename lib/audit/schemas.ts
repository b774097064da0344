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
  actor: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "Only entries by this actor id (a user id, an API token id, an app id); a user id also finds what their API tokens and apps did.", example: "usr_01jd2x8k3f0m6q1v9w4r7t5y2z" }),
  action: z.enum(auditActions, { error: `must be one of ${auditActions.join(", ")}` }).optional().meta({ description: "Only entries of this action." }),
  from: instant("from"),
  to: instant("to"),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

export const auditEntryOutput = z
  .strictObject({
    id: prefixedId("audit"),
    actor: z
      .strictObject({
        type: z.enum(["user", "api_token", "oauth_app", "automation", "system", "anonymous"]).meta({
          description:
            "The credential used: `user` (signed in in the browser or with a session token), `api_token` (one of a user's API tokens: the action is credited to the token), `oauth_app` (an app acting for a user), `automation`, `system`, or `anonymous` (a failed sign-in).",
        }),
        id: z.string().nullable().meta({ description: "The user's, token's or app's id." }),
        name: z.string().nullable().meta({ description: "The user's, token's or app's name when the entry was written (the email tried, for a failed sign-in)." }),
        via: z
          .strictObject({
            token_id: z.string().optional().meta({ description: "The API token used." }),
            app_id: z.string().optional().meta({ description: "The OAuth app used." }),
            user_id: z.string().meta({ description: "The person the token or app belongs to or acts for." }),
            user_name: z.string(),
          })
          .optional()
          .meta({ description: "For `api_token` and `oauth_app`: the credential and the person behind it." }),
      })
      .meta({ id: "AuditActor" }),
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
    actor: {
      type: row.actorType === "app" ? "oauth_app" : row.actorType,
      id: row.actorId,
      name: row.actorName,
      ...(row.actorVia ? { via: row.actorVia } : {}),
    },
    action: row.action as AuditEntryOutput["action"],
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  };
}
