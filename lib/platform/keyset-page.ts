import { type AnyColumn, and, asc, desc, eq, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { type CursorPosition, type Page, toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";

/** What a caller asks of a list: a page size and where to continue. */
export type PageArgs = { limit: number; cursor?: CursorPosition };

type Row<Q extends PgSelect> = Q["_"]["result"][number];

/**
 * One keyset page of an account's rows in (created_at, id) order: the account filter, the
 * caller's conditions, the cursor, the order and `limit + 1` that every list shares. `query` is
 * the select (with its joins) made `$dynamic()`; `table` holds the columns the page runs on.
 */
export async function keysetPage<Q extends PgSelect, T>(
  query: Q,
  {
    table,
    accountId,
    where = [],
    order,
    limit,
    cursor,
    position,
    present,
  }: {
    table: { accountId: AnyColumn; createdAt: AnyColumn; id: AnyColumn };
    accountId: string;
    where?: (SQL | undefined)[];
    order: "asc" | "desc";
    limit: number;
    cursor?: CursorPosition;
    position: (row: Row<Q>) => CursorPosition;
    present: (row: Row<Q>) => T;
  },
): Promise<Page<T>> {
  const by = order === "asc" ? asc : desc;
  const rows: Row<Q>[] = await query
    .where(and(eq(table.accountId, accountId), ...where, afterCursor(table, cursor, order)))
    .orderBy(by(table.createdAt), by(table.id))
    .limit(limit + 1);
  return toPage(rows, limit, position, present);
}
