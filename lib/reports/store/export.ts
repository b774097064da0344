import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows, REACHED_NETWORK, resolutionSeconds } from "./query";

export type ExportRow = {
  id: string;
  created_at: string | Date;
  phone: string;
  contact_name: string | null;
  closed_at: string | Date | null;
  first_response: number | null;
  resolution: number | null;
  assignee: string | null;
  labels: string | null;
  csat_score: number | string | null;
};

/**
 * Up to `limit` of the account's conversations created in [from, to) after the keyset position
 * `after`, oldest first, each with its contact, assignee, labels, survey score, resolution and
 * first response times.
 */
export async function conversationsToExport(
  db: Executor,
  { accountId, from, to, after, limit }: { accountId: string; from: string; to: string; after?: { t: string; id: string }; limit: number },
) {
  return queryRows<ExportRow>(db, sql`
    select c.id, c.created_at, ct.phone, ct.name as contact_name, c.closed_at, c.csat_score, u.name as assignee,
      (select string_agg(l->>'name', '; ' order by l->>'name') from jsonb_array_elements(c.labels) l) as labels,
      case when c.closed_at is not null then ${resolutionSeconds("c")} end as resolution,
      fr.seconds as first_response
    from conversations c
    join contacts ct on ct.id = c.contact_id
    left join users u on u.id = c.assigned_to
    left join lateral (
      select extract(epoch from (reply.created_at - first_in.created_at))::float8 as seconds
      from (
        select m.created_at from messages m
        where m.conversation_id = c.id and m.direction = 'inbound'
        order by m.created_at, m.id limit 1
      ) first_in
      join lateral (
        select r.created_at from messages r
        where r.conversation_id = c.id and r.direction = 'outbound' and r.sender_type = 'user'
          and r.status in ${REACHED_NETWORK} and r.created_at >= first_in.created_at
        order by r.created_at, r.id limit 1
      ) reply on true
    ) fr on true
    where c.account_id = ${accountId} and c.created_at >= ${from}::timestamptz and c.created_at < ${to}::timestamptz
      ${after ? sql`and (c.created_at, c.id) > (${after.t}::timestamptz, ${after.id})` : sql``}
    order by c.created_at, c.id
    limit ${limit}`);
}
