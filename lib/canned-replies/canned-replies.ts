import { auditChange } from "@/lib/audit/record-audit";
import "server-only";
import { cannedReplies } from "@/db/schema";
import { type CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import type { ServiceContext } from "@/lib/auth/context";
import { ConflictError, isUniqueViolation, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { type CreateCannedReplyInput, presentCannedReply, type UpdateCannedReplyInput } from "./schemas";
import { deleteCannedReplyRow, insertCannedReply, selectCannedReplies, updateCannedReplyRow } from "./store";

const duplicate = (shortcut: string) => new ConflictError(`A canned reply with the shortcut "/${shortcut}" already exists.`);

/** Oldest first, in keyset pages. */
export async function listCannedReplies({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectCannedReplies(ctx.db), {
    table: cannedReplies,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentCannedReply,
  });
}

export async function createCannedReply({ ctx, input }: { ctx: ServiceContext; input: CreateCannedReplyInput }) {
  const now = new Date();
  try {
    const row = await insertCannedReply(ctx.db, { id: newId("cannedReply", now), accountId: ctx.accountId, shortcut: input.shortcut, text: input.text, createdAt: now, updatedAt: now });
    await auditChange(ctx, "canned_reply.created", { type: "canned_reply", id: row.id });
    return presentCannedReply(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.shortcut);
    throw error;
  }
}

export async function updateCannedReply({ ctx, id, input }: { ctx: ServiceContext; id: string; input: UpdateCannedReplyInput }) {
  try {
    const row = await updateCannedReplyRow(ctx.db, {
      accountId: ctx.accountId,
      id,
      set: { ...(input.shortcut !== undefined ? { shortcut: input.shortcut } : {}), ...(input.text !== undefined ? { text: input.text } : {}), updatedAt: new Date() },
    });
    if (!row) throw new NotFoundError("Canned reply");
    await auditChange(ctx, "canned_reply.updated", { type: "canned_reply", id: row.id });
    return presentCannedReply(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.shortcut ?? "");
    throw error;
  }
}

export async function deleteCannedReply({ ctx, id }: { ctx: ServiceContext; id: string }) {
  if (!(await deleteCannedReplyRow(ctx.db, { accountId: ctx.accountId, id }))) throw new NotFoundError("Canned reply");
  await auditChange(ctx, "canned_reply.deleted", { type: "canned_reply", id });
}
