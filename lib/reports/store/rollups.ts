import "server-only";
import { type SQL, sql } from "drizzle-orm";

const SLOT_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

/**
 * [from, to) split into the whole buckets of `width` it covers, read from a rollup, and the
 * parts before and after them, read from the rows themselves: `inner` is [innerFrom, innerTo)
 * (empty when the range holds no whole bucket, then `edges` is the whole range).
 */
export function splitRange(from: string, to: string, width: number) {
  const start = Date.parse(from);
  const end = Date.parse(to);
  let innerFrom = Math.ceil(start / width) * width;
  let innerTo = Math.floor(end / width) * width;
  if (innerTo <= innerFrom) innerFrom = innerTo = end;
  const a = new Date(innerFrom).toISOString();
  const b = new Date(innerTo).toISOString();
  return {
    innerFrom: a,
    innerTo: b,
    /** The messages of the range outside its whole buckets, as a condition on `alias`.created_at. */
    edges: (alias: string) => {
      const at = sql.raw(`${alias}.created_at`);
      return sql`((${at} >= ${from}::timestamptz and ${at} < ${a}::timestamptz) or (${at} >= ${b}::timestamptz and ${at} < ${to}::timestamptz))`;
    },
  };
}

/**
 * The account's message counts in [from, to) as rows `(at, received, sent, sent_by_agents,
 * automated, failed)`: whole 15-minute slots from report_message_slots (`at` the slot's start,
 * every real time zone's hours begin on one), the rest one row per message.
 */
export function messageCounts({ accountId, from, to }: { accountId: string; from: string; to: string }): SQL {
  const range = splitRange(from, to, SLOT_MS);
  return sql`(
    select s.slot as at, s.received, s.sent, s.sent_by_agents, s.automated, s.failed
    from report_message_slots s
    where s.account_id = ${accountId} and s.slot >= ${range.innerFrom}::timestamptz and s.slot < ${range.innerTo}::timestamptz
    union all
    select m.created_at,
      (m.direction = 'inbound')::int,
      (m.direction = 'outbound')::int,
      (m.direction = 'outbound' and m.sender_type = 'user')::int,
      (m.direction = 'outbound' and m.sender_type = 'automation')::int,
      (m.direction = 'outbound' and m.status = 'failed')::int
    from messages m
    where m.account_id = ${accountId} and ${range.edges("m")}
  )`;
}

/**
 * Each agent's outbound messages in [from, to) as rows `(user_id, sent, sent_ok)` (sent_ok: not
 * failed), to be summed per user: whole UTC days from report_agent_days, the rest per message.
 */
export function agentMessageCounts({ accountId, from, to }: { accountId: string; from: string; to: string }): SQL {
  const range = splitRange(from, to, DAY_MS);
  return sql`(
    select d.user_id, d.sent, d.sent_ok
    from report_agent_days d
    where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
    union all
    select m.sender_user_id, 1, (m.status <> 'failed')::int
    from messages m
    where m.account_id = ${accountId} and m.direction = 'outbound' and m.sender_type = 'user' and m.sender_user_id is not null
      and ${range.edges("m")}
  )`;
}

/**
 * The SLA targets met and breached in [from, to) as rows `(sla_policy_id, user_id, met,
 * breached)`, to be summed: whole UTC days from report_sla_days (`user_id` null for nobody),
 * the rest per outcome.
 */
export function slaOutcomeCounts({ accountId, from, to }: { accountId: string; from: string; to: string }): SQL {
  const range = splitRange(from, to, DAY_MS);
  return sql`(
    select d.sla_policy_id, nullif(d.user_id, '') as user_id, d.met, d.breached
    from report_sla_days d
    where d.account_id = ${accountId} and d.day >= ${range.innerFrom}::timestamptz and d.day < ${range.innerTo}::timestamptz
    union all
    select o.sla_policy_id, o.user_id, (o.outcome = 'met')::int, (o.outcome = 'breached')::int
    from sla_outcomes o
    where o.account_id = ${accountId} and ${range.edges("o")}
  )`;
}
