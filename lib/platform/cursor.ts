import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "@/lib/platform/crypto/keys";
import { invalidField } from "@/lib/platform/errors";

export type CursorPosition = { t: Date; id: string };

function sign(payload: string): string {
  return createHmac("sha256", deriveKey("cursor")).update(payload).digest("base64url").slice(0, 22);
}

/** An opaque, signed position in a keyset-ordered list. */
export function encodeCursor(position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([position.t.toISOString(), position.id])).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

/** Decodes a cursor from a client; anything altered or malformed is a 400 naming `cursor`. */
export function decodeCursor(cursor: string): CursorPosition {
  const tampered = () => invalidField("cursor", "is not a cursor issued by this API");
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw tampered();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw tampered();
  try {
    const [t, id] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
    const date = new Date(String(t));
    if (typeof id !== "string" || Number.isNaN(date.getTime())) throw tampered();
    return { t: date, id };
  } catch {
    throw tampered();
  }
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
