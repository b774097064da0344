import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "@/db";
import { invalidField } from "@/lib/platform/errors";

/** Rows of a raw query on `db` (the caller's transaction or the pool), whichever driver ran it (PGlite answers `{rows}`, postgres.js an array). */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  try {
    return rowsOf<T>(await db.execute(query));
  } catch (error) {
    // Intl and the database each ship a time zone list; a name only Intl knows is still the caller's input.
    if (error instanceof Error && /time zone .* not recognized/i.test(error.message)) {
      throw invalidField("tz", "is not a time zone the database knows");
    }
    throw error;
  }
}

/** An outbound message that reached the network: only these count as a response. */
export const REACHED_NETWORK = sql.raw(`('sent', 'delivered', 'read')`);

/** Seconds from a conversation's creation, or its latest reopening, to its close. */
export const resolutionSeconds = (alias: string) =>
  sql.raw(`extract(epoch from (${alias}.closed_at - coalesce(${alias}.opened_at, ${alias}.created_at)))::float8`);

/**
 * Every close of the account as a row `(conversation_id, user_id, seconds, closed_at)`, as it was
 * recorded when it happened (the assignee then, the resolution time then), so a conversation
 * reopened or reassigned later keeps its close in its range and with its agent. A closed
 * conversation whose close was never recorded as such (one filed away closed on arrival, or
 * closed before closes were recorded) counts from its row while it stays closed: triggers keep
 * those in report_implicit_closes.
 */
export function closes(accountId: string): SQL {
  return sql`(
    select r.conversation_id, r.user_id, r.value_s as seconds, r.created_at as closed_at
    from reporting_events r
    where r.account_id = ${accountId} and r.name = 'conversation_resolved'
    union all
    select i.conversation_id, i.user_id, i.value_s, i.created_at
    from report_implicit_closes i
    where i.account_id = ${accountId}
  )`;
}
