import "server-only";
import type { Executor } from "@/db";
import { automations } from "@/db/schema";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { type CursorPosition } from "@/lib/platform/cursor";
import { ConflictError, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { keysetPage } from "@/lib/platform/keyset-page";
import { checkActions } from "./actions";
import { type CreateAutomationInput, presentAutomation, type UpdateAutomationInput } from "./schemas";
import {
  deleteAutomationRow,
  findAutomationsInOrder,
  insertAutomation,
  lockAutomation,
  lockRuleOrder,
  selectAutomations,
  shiftAutomationPositions,
  updateAutomationRow,
} from "./store";

const MAX_AUTOMATIONS_PER_ACCOUNT = 100;

type Ctx = ServiceContext<"user">;

/** Oldest first, in keyset pages; `position` is the running order. */
export async function listAutomations({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(selectAutomations(ctx.db), {
    table: automations,
    accountId: ctx.accountId,
    order: "asc",
    limit,
    cursor,
    position: (r) => ({ t: r.createdAt, id: r.id }),
    present: presentAutomation,
  });
}

/** Every rule of the account in running order (at most 100), for the settings page. */
export async function listAutomationsInOrder({ ctx }: { ctx: ServiceContext }) {
  const rows = await findAutomationsInOrder(ctx.db, { accountId: ctx.accountId });
  return rows.map(presentAutomation);
}

async function findRule(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const row = await lockAutomation(tx, { accountId, id });
  if (!row) throw new NotFoundError("Automation");
  return row;
}

/**
 * Saves a rule at `position` (default: last); the rules at and after it move down one. Every
 * user, label, canned reply and template an action names must be the account's (400 naming the
 * field otherwise); nothing is written on any error.
 */
export async function createAutomation({ ctx, input }: { ctx: Ctx; input: CreateAutomationInput }) {
  return ctx.db.transaction(async (tx) => {
    await checkActions(tx, { accountId: ctx.accountId, actions: input.actions });
    const count = await lockRuleOrder(tx, { accountId: ctx.accountId });
    if (count >= MAX_AUTOMATIONS_PER_ACCOUNT) throw new ConflictError(`An account can have at most ${MAX_AUTOMATIONS_PER_ACCOUNT} automations. Delete one first.`);
    const position = Math.min(input.position ?? count, count);
    await shiftAutomationPositions(tx, { accountId: ctx.accountId, from: position, by: 1 });
    const now = new Date();
    const row = await insertAutomation(tx, {
        id: newId("automation", now),
        accountId: ctx.accountId,
        name: input.name,
        enabled: input.enabled,
        event: input.event,
        conditions: input.conditions,
        actions: input.actions,
        position,
        authorId: ctx.user.id,
      createdAt: now,
      updatedAt: now,
    });
    await auditChange(ctx, "automation.created", { type: "automation", id: row.id }, tx);
    return presentAutomation(row);
  });
}

/** Changes what is sent; a new `position` moves the rule there and closes the gap it left. */
export async function updateAutomation({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateAutomationInput }) {
  return ctx.db.transaction(async (tx) => {
    if (input.actions) await checkActions(tx, { accountId: ctx.accountId, actions: input.actions });
    const count = await lockRuleOrder(tx, { accountId: ctx.accountId });
    const current = await findRule(tx, { accountId: ctx.accountId, id });
    let position = current.position;
    if (input.position !== undefined) {
      position = Math.min(input.position, count - 1);
      // Positions are whole numbers: the rules between the old place and the new move one step.
      if (position < current.position) {
        await shiftAutomationPositions(tx, { accountId: ctx.accountId, from: position, until: current.position, by: 1 });
      } else if (position > current.position) {
        await shiftAutomationPositions(tx, { accountId: ctx.accountId, from: current.position + 1, until: position + 1, by: -1 });
      }
    }
    const row = await updateAutomationRow(tx, {
      id: current.id,
      set: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.event !== undefined ? { event: input.event } : {}),
        ...(input.conditions !== undefined ? { conditions: input.conditions } : {}),
        ...(input.actions !== undefined ? { actions: input.actions, authorId: ctx.user.id } : {}),
        position,
        updatedAt: new Date(),
      },
    });
    await auditChange(ctx, "automation.updated", { type: "automation", id: row.id }, tx);
    return presentAutomation(row);
  });
}

export async function deleteAutomation({ ctx, id }: { ctx: Ctx; id: string }) {
  await ctx.db.transaction(async (tx) => {
    await lockRuleOrder(tx, { accountId: ctx.accountId });
    const current = await findRule(tx, { accountId: ctx.accountId, id });
    await deleteAutomationRow(tx, { id: current.id });
    await shiftAutomationPositions(tx, { accountId: ctx.accountId, from: current.position + 1, by: -1 });
    await auditChange(ctx, "automation.deleted", { type: "automation", id }, tx);
  });
}
