import "server-only";
import { sql } from "drizzle-orm";
import { REACHED_NETWORK } from "./query";

/**
 * For every conversation whose first inbound message lies in [from, to): the first human reply
 * after it (an outbound message sent by a user, not by the automation, that reached the network:
 * sent, delivered or read; a failed send is no response) and how long it took.
 * Driven by the inbound messages of the range, one index lookup per conversation, so the cost
 * follows the range and not the account's history.
 */
export function firstResponses({ accountId, from, to }: { accountId: string; from: string; to: string }) {
  return sql`
    first_inbound as (
      select m.conversation_id, m.created_at as first_at
      from messages m
      where m.account_id = ${accountId} and m.direction = 'inbound'
        and m.created_at >= ${from}::timestamptz and m.created_at < ${to}::timestamptz
        and not exists (
          select 1 from messages earlier
          where earlier.conversation_id = m.conversation_id and earlier.direction = 'inbound'
            and (earlier.created_at, earlier.id) < (m.created_at, m.id)
        )
    ),
    responses as (
      select f.conversation_id, reply.sender_user_id as user_id,
        extract(epoch from (reply.created_at - f.first_at))::float8 as seconds
      from first_inbound f
      left join lateral (
        select r.created_at, r.sender_user_id
        from messages r
        where r.conversation_id = f.conversation_id and r.direction = 'outbound' and r.sender_type = 'user'
          and r.status in ${REACHED_NETWORK} and r.created_at >= f.first_at
        order by r.created_at, r.id
        limit 1
      ) reply on true
    )`;
}
