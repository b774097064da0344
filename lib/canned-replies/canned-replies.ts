import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { cannedReplies } from "@/db/schema";
import { type CursorPosition, toPage } from "@/lib/platform/cursor";
import { afterCursor } from "@/lib/platform/pagination";
import type { AuthContext } from "@/lib/auth/tokens";
import { ConflictError, isUniqueViolation, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { type CreateCannedReplyInput, presentCannedReply, type UpdateCannedReplyInput } from "./schemas";

type Ctx = Pick<AuthContext, "accountId">;

const duplicate = (shortcut: string) => new ConflictError(`A canned reply with the shortcut "/${shortcut}" already exists.`);

/** Oldest first, in keyset pages. */
export async function listCannedReplies({ ctx, limit, cursor }: { ctx: Ctx; limit: number; cursor?: CursorPosition }) {
  const rows = await getDb()
    .select()
    .from(cannedReplies)
    .where(and(eq(cannedReplies.accountId, ctx.accountId), afterCursor(cannedReplies, cursor, "asc")))
    .orderBy(asc(cannedReplies.createdAt), asc(cannedReplies.id))
    .limit(limit + 1);
  return toPage(rows, limit, (r) => ({ t: r.createdAt, id: r.id }), presentCannedReply);
}

export async function createCannedReply({ ctx, input }: { ctx: Ctx; input: CreateCannedReplyInput }) {
  const now = new Date();
  try {
    const [row] = await getDb()
      .insert(cannedReplies)
      .values({ id: newId("cannedReply", now), accountId: ctx.accountId, shortcut: input.shortcut, text: input.text, createdAt: now, updatedAt: now })
      .returning();
    return presentCannedReply(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.shortcut);
    throw error;
  }
}

export async function updateCannedReply({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateCannedReplyInput }) {
  try {
    const [row] = await getDb()
      .update(cannedReplies)
      .set({ ...(input.shortcut !== undefined ? { shortcut: input.shortcut } : {}), ...(input.text !== undefined ? { text: input.text } : {}), updatedAt: new Date() })
      .where(and(eq(cannedReplies.accountId, ctx.accountId), eq(cannedReplies.id, id)))
      .returning();
    if (!row) throw new NotFoundError("Canned reply");
    return presentCannedReply(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.shortcut ?? "");
    throw error;
  }
}

export async function deleteCannedReply({ ctx, id }: { ctx: Ctx; id: string }) {
  const deleted = await getDb()
    .delete(cannedReplies)
    .where(and(eq(cannedReplies.accountId, ctx.accountId), eq(cannedReplies.id, id)))
    .returning({ id: cannedReplies.id });
  if (!deleted.length) throw new NotFoundError("Canned reply");
}
