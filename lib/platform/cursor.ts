import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "@/lib/platform/crypto/keys";
import { invalidField } from "@/lib/platform/errors";

export type CursorPosition = { t: Date; id: string };

/**
 * The list a request reads (its path and every filter but `cursor` and `limit`): a cursor is
 * handed out for it and accepted only by it, so a cursor of one list or filter cannot page
 * through another. Set by the API wrapper; outside it (server-rendered pages) cursors are unbound.
 */
const listScope = new AsyncLocalStorage<string>();

/** The scope of a list request: its path and its filters in a stable order. */
export function listScopeOf(url: URL): string {
  const filters = [...url.searchParams].filter(([key]) => key !== "cursor" && key !== "limit").sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return createHash("sha256").update(JSON.stringify([url.pathname, filters])).digest("base64url").slice(0, 16);
}

/** Runs `work` with cursors bound to this list scope. */
export function withListScope<T>(scope: string, work: () => T): T {
  return listScope.run(scope, work);
}

function sign(payload: string): string {
  return createHmac("sha256", deriveKey("cursor")).update(payload).digest("base64url").slice(0, 22);
}

/** An opaque, signed position in a keyset-ordered list. */
export function encodeCursor(position: CursorPosition): string {
  const scope = listScope.getStore();
  const payload = Buffer.from(JSON.stringify([position.t.toISOString(), position.id, ...(scope ? [scope] : [])])).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

const tampered = () => invalidField("cursor", "is not a cursor issued by this API");
const otherList = () => invalidField("cursor", "belongs to another list or other filters: start again without a cursor");

/** The JSON a signed cursor carries; anything altered or malformed is a 400 naming `cursor`. */
function verifiedPayload(cursor: string): unknown {
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw tampered();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw tampered();
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw tampered();
  }
}

/** Decodes a cursor from a client; anything altered or malformed is a 400 naming `cursor`. */
export function decodeCursor(cursor: string): CursorPosition {
  const decoded = verifiedPayload(cursor);
  const [t, id, scope] = Array.isArray(decoded) ? decoded : [];
  const date = new Date(String(t));
  if (typeof id !== "string" || Number.isNaN(date.getTime())) throw tampered();
  const current = listScope.getStore();
  if (current !== undefined && scope !== current) throw otherList();
  return { t: date, id };
}

export type Page<T> = { data: T[]; pagination: { next_cursor: string | null; has_more: boolean } };

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only tells that
 * another page exists, so the last page never hands out a cursor to an empty page.
 */
export function toPage<R, T>(
  rows: R[],
  limit: number,
  position: (row: R) => CursorPosition,
  present: (row: R) => T,
): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(present),
    pagination: {
      next_cursor: hasMore && last ? encodeCursor(position(last)) : null,
      has_more: hasMore,
    },
  };
}

/**
 * A signed cursor over a keyset of any values (a name, a time), bound to the list and order it
 * came from (`list`, such as `contacts:name`): given to another list or order it is a 400 naming
 * `cursor`, never a page of something else.
 */
export function encodeListCursor(list: string, values: string[]): string {
  const scope = listScope.getStore();
  const payload = Buffer.from(JSON.stringify({ l: list, v: values, ...(scope ? { s: scope } : {}) })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/** Decodes a cursor of `encodeListCursor` for `list` with `count` values; anything else is a 400 naming `cursor`. */
export function decodeListCursor(cursor: string, list: string, count: number): string[] {
  const { l, v, s } = (verifiedPayload(cursor) ?? {}) as { l?: unknown; v?: unknown; s?: unknown };
  const current = listScope.getStore();
  if (l !== list || (current !== undefined && s !== current)) throw otherList();
  if (!Array.isArray(v) || v.length !== count || !v.every((value) => typeof value === "string")) throw tampered();
  return v as string[];
}
