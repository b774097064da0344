import { type Executor, getDb } from "@/db";
import type { AuthContext } from "./tokens";

/**
 * Who a domain verb acts for: always the account, plus the parts of the caller it names
 * (`ServiceContext<"user">` for verbs that record who did it). `tx` runs the verb inside the
 * caller's transaction.
 */
export type ServiceContext<K extends keyof AuthContext = "accountId"> = Pick<AuthContext, "accountId" | K> & { tx?: Executor };

/** The caller's transaction when there is one, the database otherwise. */
export const executorOf = (ctx: ServiceContext): Executor => ctx.tx ?? getDb();
