import { getDb } from "@/db";
import type { Actor, SystemContext, VerbContext } from "@/lib/auth/context";
import type { AuthContext } from "@/lib/auth/tokens";
import { runAutomations } from "@/lib/automations/engine";

/** What a signed-in request hands to the verbs: the caller (user, token) and the verb context. */
export type RequestContext = AuthContext & VerbContext;

/**
 * The process's part of every verb context: the pool as `db`, and the automation rules as the
 * reaction to recorded events (they act through the domains' verbs, which record events
 * themselves, so the events module is handed them rather than importing them). For entry points
 * that learn the account from their input (a job's payload, an inbound webhook).
 */
export function systemContext(): SystemContext {
  return { db: getDb(), react: runAutomations };
}

/**
 * The context every entry point hands to the domain verbs (the /v1 and plant store routes,
 * server actions, job handlers, scripts, tests): the account and who acts, plus `systemContext()`.
 * Given a signed-in caller (an `AuthContext`) it keeps the caller's other parts (`user`, `token`)
 * and names the user as the actor.
 */
export function verbContext<W extends { accountId: string; actor?: Actor; user?: Actor }>(who: W): W & VerbContext {
  return { ...who, actor: who.actor ?? who.user, ...systemContext() };
}
