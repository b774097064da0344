import "server-only";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { csvLine } from "@/lib/platform/csv";
import { toIso, toSeconds } from "./query";
import type { ReportRange } from "./schemas";
import { conversationsToExport, type ExportRow } from "./store/export";
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
      const rows = await conversationsToExport(ctx.db, { accountId, from, to, after, limit: BATCH });
      if (rows.length < BATCH) done = true;
      if (rows.length === 0) return controller.close();
      const last = rows[rows.length - 1];
      after = { t: toIso(last.created_at), id: last.id };
      controller.enqueue(encoder.encode(rows.map(toLine).join("")));
    },
  });
}
