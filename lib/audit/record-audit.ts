import type { Executor } from "@/db";
import { currentRequestInfo, type RequestInfo } from "@/lib/platform/http/request-info";
import { newId } from "@/lib/platform/ids";
import type { AuditAction } from "./actions";
import { insertAuditEntry } from "./store";

/** The credential an API token or app acted with, and the person it belongs to. */
type AuditVia = { token_id?: string; app_id?: string; user_id: string; user_name: string };

/**
 * Who did it, named by the credential used: a person signed in (`user`), one of their API tokens
 * (`api_token`, credited to the token), an OAuth app acting for them (`oauth_app`), an automation,
 * the system, or someone not signed in (`anonymous`, a failed sign-in). `via` keeps the person
 * behind a token or app.
 */
export type AuditActor = {
  type: "user" | "api_token" | "oauth_app" | "automation" | "system" | "anonymous";
  id: string | null;
  name: string | null;
  via?: AuditVia;
};
export type AuditTarget = { type: string; id: string } | null;

type Credential = { id: string; kind: string; name?: string; app?: { id: string; name: string } };

/** The acting credential of a request context (or the system, for work without one), as the audit log names it. */
export function actorOf(ctx: object): AuditActor {
  const user = (ctx as { user?: { id: string; name: string } }).user;
  return user ? userActor(ctx as { user: { id: string; name: string } }) : { type: "system", id: null, name: null };
}

/**
 * The acting credential of a request context: the person for a browser or session sign-in; the
 * token for an API token; the app for an app's token (each with the person in `via`).
 */
export function userActor(ctx: { user: { id: string; name: string }; token?: Credential }): AuditActor {
  const { user, token } = ctx;
  if (token?.kind === "api") {
    return { type: "api_token", id: token.id, name: token.name ?? null, via: { token_id: token.id, user_id: user.id, user_name: user.name } };
  }
  if (token?.kind === "oauth" && token.app) {
    return { type: "oauth_app", id: token.app.id, name: token.app.name, via: { app_id: token.app.id, user_id: user.id, user_name: user.name } };
  }
  return { type: "user", id: user.id, name: user.name };
}

/**
 * Records a change made by a request context (its credential as the actor), through the
 * context's executor, or `tx` when given.
 */
export async function auditChange(ctx: { accountId: string; db: Executor }, action: AuditAction, target: AuditTarget, tx?: Executor) {
  await recordAudit(tx ?? ctx.db, { accountId: ctx.accountId, actor: actorOf(ctx), action, target });
}

/**
 * Appends one entry to the account's audit log through `tx`: the caller's transaction, so the
 * entry commits (or not) with the change, or the pool. Entries are never updated or deleted.
 */
export async function recordAudit(
  tx: Executor,
  entry: { accountId: string; actor: AuditActor; action: AuditAction; target?: AuditTarget; request?: RequestInfo; at?: Date },
) {
  const request = entry.request ?? currentRequestInfo();
  const at = entry.at ?? new Date();
  await insertAuditEntry(tx, {
    id: newId("audit", at),
    accountId: entry.accountId,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    actorVia: entry.actor.via ?? null,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    ip: request.ip,
    userAgent: request.userAgent,
    createdAt: at,
  });
}
