import "server-only";
import { auditChange } from "@/lib/audit/record-audit";
import { and, desc, eq } from "drizzle-orm";
import { contacts } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import type { CursorPosition } from "@/lib/platform/cursor";
import { csvCell, csvLine } from "@/lib/platform/csv";
import { afterCursor } from "@/lib/platform/pagination";
import { type ContactDetailOutput, presentContact } from "./schemas";
import { selectContacts, withStats } from "./store";

const BATCH = 500;

const CSV_COLUMNS = ["id", "phone", "name", "email", "notes", "blocked", "created_at", "last_message_at", "conversations_count", "network_user_id", "username", "attributes"] as const;

/** One contact as a CSV record (without its line end). */
function csvRow(contact: ContactDetailOutput): string {
  const attributes = Object.keys(contact.attributes).length ? JSON.stringify(contact.attributes) : "";
  return [
    contact.id,
    contact.phone,
    contact.name,
    contact.email,
    contact.notes,
    contact.blocked,
    contact.created_at,
    contact.last_message_at,
    contact.conversations_count,
    contact.network_user_id,
    contact.username,
    // Last: a JSON cell of its own.
    attributes,
  ]
    .map(csvCell)
    .join(",");
}

/** Every contact of the account as CSV, newest first, read in keyset batches while streaming. */
export function exportContactsCsv({ ctx }: { ctx: ServiceContext }): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: CursorPosition | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        await auditChange(ctx, "export.contacts", null);
        controller.enqueue(encoder.encode(csvLine(CSV_COLUMNS)));
      }
      const rows = await selectContacts(ctx.db)
        .where(and(eq(contacts.accountId, ctx.accountId), afterCursor(contacts, cursor, "desc")))
        .orderBy(desc(contacts.createdAt), desc(contacts.id))
        .limit(BATCH);
      if (rows.length > 0) {
        controller.enqueue(encoder.encode(rows.map((row) => `${csvRow(presentContact(withStats(row)))}\r\n`).join("")));
        const last = rows[rows.length - 1].contact;
        cursor = { t: last.createdAt, id: last.id };
      }
      if (rows.length < BATCH) controller.close();
    },
  });
}
