import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type CursorPosition, decodeCursor } from "@/lib/platform/cursor";

export const limitSchema = z.coerce
  .number({ error: "must be an integer between 1 and 100" })
  .int("must be an integer between 1 and 100")
  .min(1, "must be an integer between 1 and 100")
  .max(100, "must be an integer between 1 and 100")
  .default(50)
  .meta({ description: "Page size, 1 to 100.", example: 50 });

export const paginationQuery = z.object({
  limit: limitSchema,
  cursor: z
    .string()
    .min(1)
    .transform((value) => decodeCursor(value))
    .optional()
    .meta({ description: "`next_cursor` of the previous page." }),
});

/**
 * The keyset condition for the page after `cursor` in (created_at, id) order.
 * A row comparison keeps it one range scan on the composite index.
 */
export function afterCursor(
  columns: { createdAt: AnyColumn; id: AnyColumn },
  cursor: CursorPosition | undefined,
  direction: "asc" | "desc",
): SQL | undefined {
  if (!cursor) return undefined;
  return keyset(columns, cursor.t.toISOString(), cursor.id, direction);
}

/**
 * `afterCursor` for a statement prepared once: the cursor comes as the placeholders
 * `cursorAt` and `cursorId`, which `cursorPlaceholders` fills.
 */
export function afterCursorPlaceholder(columns: { createdAt: AnyColumn; id: AnyColumn }, direction: "asc" | "desc"): SQL {
  return keyset(columns, sql.placeholder("cursorAt"), sql.placeholder("cursorId"), direction);
}

export const cursorPlaceholders = (cursor: CursorPosition) => ({ cursorAt: cursor.t.toISOString(), cursorId: cursor.id });

function keyset(columns: { createdAt: AnyColumn; id: AnyColumn }, at: unknown, id: unknown, direction: "asc" | "desc") {
  return direction === "desc"
    ? sql`(${columns.createdAt}, ${columns.id}) < (${at}::timestamptz, ${id})`
    : sql`(${columns.createdAt}, ${columns.id}) > (${at}::timestamptz, ${id})`;
}

/**
 * Every row of a keyset-paged list, page by page: for server-rendered settings pages whose
 * lists are small but must never stop silently at one page.
 */
export async function collectPages<T>(
  fetchPage: (cursor: CursorPosition | undefined) => Promise<{ data: T[]; pagination: { next_cursor: string | null } }>,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: CursorPosition | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    all.push(...page.data);
    if (!page.pagination.next_cursor) return all;
    cursor = decodeCursor(page.pagination.next_cursor);
  }
}
