import "server-only";
import { auditChange } from "@/lib/audit/record-audit";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import type { ServiceContext } from "@/lib/auth/context";
import { csvLine } from "@/lib/platform/csv";
import { queryRows, REACHED_NETWORK, resolutionSeconds, toIso, toSeconds } from "./query";
import type { ReportRange } from "./schemas";
import { inBusinessZone, rangeDays } from "./zone";

export const EXPORT_COLUMNS = [
  "id",
  "contact_phone",
  "contact_name",
  "created_at",
  "first_response_s",
  "closed_at",
  "resolution_s",
  "assignee",
  "labels",
  "csat",
] as const;

const BATCH = 500;

type ExportRow = {
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

function toLine(row: ExportRow): string {
  return csvLine([
    row.id,
    row.phone,
    row.contact_name,
    toIso(row.created_at),
    toSeconds(row.first_response),
    row.closed_at ? toIso(row.closed_at) : null,
    toSeconds(row.resolution),
    row.assignee,
    // Label names, alphabetical, separated by "; ".
    row.labels,
    row.csat_score === null ? null : Number(row.csat_score),
  ]);
}

async function exportBatch({ db, accountId, from, to, after }: { db: Executor; accountId: string; from: string; to: string; after?: { t: string; id: string } }) {
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
    limit ${BATCH}`);
}

/**
 * The conversations created in [from, to) as CSV (header first, CRLF line ends), oldest first,
 * one row each: first_response_s from the first customer message to the first person's reply
 * that reached the network, resolution_s from creation (or the latest reopening) to the close,
 * the assignee's name, the survey score. Read in keyset batches and streamed, so a year of
 * conversations never sits in memory at once.
 */
export async function exportConversations({ ctx, range: asked }: { ctx: ServiceContext; range: ReportRange }): Promise<{ filename: string; body: ReadableStream<Uint8Array> }> {
  const range = await inBusinessZone(ctx, asked);
  const { first, last } = rangeDays(range);
  // Named by the days it covers in the report's zone, the last one included.
  return { filename: `conversations-${first}-${last}.csv`, body: exportConversationsCsv({ ctx, range }) };
}

function exportConversationsCsv({ ctx, range }: { ctx: ServiceContext; range: ReportRange }): ReadableStream<Uint8Array> {
  const accountId = ctx.accountId;
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const encoder = new TextEncoder();
  let after: { t: string; id: string } | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        await auditChange(ctx, "export.conversations", null);
        controller.enqueue(encoder.encode(csvLine(EXPORT_COLUMNS)));
        return;
      }
      if (done) return controller.close();
      const rows = await exportBatch({ db: ctx.db, accountId, from, to, after });
      if (rows.length < BATCH) done = true;
      if (rows.length === 0) return controller.close();
      const last = rows[rows.length - 1];
      after = { t: toIso(last.created_at), id: last.id };
      controller.enqueue(encoder.encode(rows.map(toLine).join("")));
    },
  });
}
