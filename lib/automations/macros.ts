import "server-only";
import type { Executor } from "@/db";
import { macros } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import { auditChange } from "@/lib/audit/record-audit";
import { authorize } from "@/lib/auth/authorize";
import type { ServiceContext } from "@/lib/auth/context";
import { findConversation } from "@/lib/conversations/store";
import { type CursorPosition } from "@/lib/platform/cursor";
import { ForbiddenError, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { keysetPage } from "@/lib/platform/keyset-page";
import { checkActions, runAction, scopesToRun, type ActionResult } from "./actions";
import { type AutomationActionInput, type CreateMacroInput, type MacroRunOutput, presentMacro, type UpdateMacroInput } from "./schemas";
import { deleteMacroRow, findVisibleMacro as findMacroRow, insertMacro, macroVisibleTo, selectMacros, updateMacroRow } from "./store";

type Ctx = ServiceContext<"user" | "token">;

/** The macros a user sees: the account's, and their own personal ones. */

/** An account macro is shared configuration: only an administrator saves, changes or deletes one. */
function refuseSharedUnlessAdmin(ctx: Ctx, visibility: "personal" | "account") {
  if (visibility === "account" && ctx.user.role !== "admin") throw new ForbiddenError("Only an administrator can save or change a macro shared with the account.");
}

export async function listMacros({ ctx, limit, cursor }: { ctx: Ctx; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectMacros(ctx.db), {
    table: macros,
    accountId: ctx.accountId,
    where: [macroVisibleTo(ctx.user.id)],
    order: "asc",
    limit,
    cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentMacro,
  });
}

async function findVisibleMacro(tx: Executor, ctx: Ctx, id: string, lock = false) {
  const row = await findMacroRow(tx, { accountId: ctx.accountId, userId: ctx.user.id, id, lock });
  if (!row) throw new NotFoundError("Macro");
  return row;
}

export async function createMacro({ ctx, input }: { ctx: Ctx; input: CreateMacroInput }) {
  refuseSharedUnlessAdmin(ctx, input.visibility);
  return ctx.db.transaction(async (tx) => {
    await checkActions(tx, { accountId: ctx.accountId, actions: input.actions });
    const now = new Date();
    const row = await insertMacro(tx, { id: newId("macro", now), accountId: ctx.accountId, name: input.name, visibility: input.visibility, ownerId: ctx.user.id, actions: input.actions, createdAt: now, updatedAt: now });
    await auditChange(ctx, "macro.created", { type: "macro", id: row.id }, tx);
    return presentMacro(row);
  });
}

export async function updateMacro({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateMacroInput }) {
  return ctx.db.transaction(async (tx) => {
    const current = await findVisibleMacro(tx, ctx, id, true);
    refuseSharedUnlessAdmin(ctx, current.visibility);
    if (input.visibility) refuseSharedUnlessAdmin(ctx, input.visibility);
    if (input.actions) await checkActions(tx, { accountId: ctx.accountId, actions: input.actions });
    const row = await updateMacroRow(tx, {
      id: current.id,
      set: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
        ...(input.actions !== undefined ? { actions: input.actions } : {}),
        updatedAt: new Date(),
      },
    });
    await auditChange(ctx, "macro.updated", { type: "macro", id: row.id }, tx);
    return presentMacro(row);
  });
}

export async function deleteMacro({ ctx, id }: { ctx: Ctx; id: string }) {
  await ctx.db.transaction(async (tx) => {
    const current = await findVisibleMacro(tx, ctx, id, true);
    refuseSharedUnlessAdmin(ctx, current.visibility);
    await deleteMacroRow(tx, { id: current.id });
    await auditChange(ctx, "macro.deleted", { type: "macro", id }, tx);
  });
}

/**
 * Runs a macro on a conversation as the caller, its actions in order and all in one
 * transaction: an action that is refused (a template not approved) refuses the whole run and
 * nothing is changed. An action with nothing to do (the label is already there) is skipped.
 * The events it records are the caller's, and trigger automation rules as theirs would.
 * A macro is no way around a scope: one that sends a message needs messages:write, as sending
 * by hand does (403 before anything runs).
 */
export async function runMacro({ ctx, conversationId, macroId }: { ctx: Ctx; conversationId: string; macroId: string }): Promise<MacroRunOutput> {
  return ctx.db.transaction(async (tx) => {
    const macro = await findVisibleMacro(tx, ctx, macroId);
    for (const scope of scopesToRun(macro.actions as AutomationActionInput[])) authorize(ctx, scope);
    const conversation = await findConversation(tx, { accountId: ctx.accountId, id: conversationId, lock: true });
    const now = new Date();
    const actor = { type: "user" as const, user: ctx.user };
    const results: ActionResult[] = [];
    for (const action of macro.actions as AutomationActionInput[]) {
      results.push(await runAction({ db: tx, react: ctx.react, accountId: ctx.accountId, conversationId: conversation.id, actor, now }, action));
    }
    await recordActivity(tx, {
      accountId: ctx.accountId,
      conversationId: conversation.id,
      type: "macro",
      actor: { type: "user", id: ctx.user.id, name: ctx.user.name },
      data: { macro: { id: macro.id, name: macro.name }, actions: results },
      at: now,
    });
    await auditChange(ctx, "macro.ran", { type: "conversation", id: conversation.id }, tx);
    return { macro_id: macro.id, conversation_id: conversation.id, actions: results };
  });
}
