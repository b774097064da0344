import type { Executor } from "@/db";
import type { EventEnvelope } from "@/lib/events/types";
import type { AuthContext } from "./tokens";

/** Who acts: the signed-in user, or the owner of the API token or app grant. */
export type Actor = AuthContext["user"];

/**
 * What else reacts to an event recorded in a transaction, before it commits (the automation
 * rules). Carried by the context, so the events module calls it without importing the domains
 * the rules act through.
 */
export type EventReaction = (ctx: VerbContext, envelope: EventEnvelope) => Promise<void>;

/**
 * The one argument every domain verb acts through: the account, who acts (absent for the system:
 * inbound webhooks, jobs, rules), and `db`, the caller's open transaction or the pool. A verb
 * never opens the database itself: inside one, a transaction is
 * `ctx.db.transaction((tx) => work({ ...ctx, db: tx }))`. `react` is the reaction to recorded
 * events; every context is built by `verbContext` (lib/server/context.ts), which sets it.
 */
export type VerbContext = {
  accountId: string;
  actor?: Actor;
  db: Executor;
  react: EventReaction;
};

/**
 * The process's part of a verb context, before the account is known (a job's payload or an
 * inbound webhook names it): the pool and the reaction. A verb adds the account:
 * `{ ...system, accountId }`. Recording an event needs no more.
 */
export type SystemContext = Pick<VerbContext, "db" | "react">;

/**
 * A verb's context with the parts of the caller it names (`ServiceContext<"user">` for verbs that
 * record who did it, `"token"` for the credential's scopes and app).
 */
export type ServiceContext<K extends keyof AuthContext = "accountId"> = Pick<AuthContext, "accountId" | K> & VerbContext;
