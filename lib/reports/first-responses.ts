import "server-only";
import { sql } from "drizzle-orm";

/**
 * The CTE `responses`: for every conversation whose first inbound message lies in [from, to), the
 * first human reply after it (an outbound message sent by a user, not by the automation, that
 * reached the network: sent, delivered or read; a failed send is no response), who gave it and
 * how long it took (null when unanswered). Read from report_first_responses, which triggers on
 * messages keep in the transaction of each change, so the cost follows the conversations of the
 * range and not their messages.
 */
export function firstResponses({ accountId, from, to }: { accountId: string; from: string; to: string }) {
  return sql`
    responses as (
      select f.conversation_id, f.reply_user_id as user_id,
        extract(epoch from (f.reply_at - f.inbound_at))::float8 as seconds
      from report_first_responses f
      where f.account_id = ${accountId}
        and f.inbound_at >= ${from}::timestamptz and f.inbound_at < ${to}::timestamptz
    )`;
}
