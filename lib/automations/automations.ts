import "server-only";
import { and, eq, gt, gte, lt, lte, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { accounts, automations } from "@/db/schema";
import { auditChange } from "@/lib/audit/record-audit";
import type { ServiceContext } from "@/lib/auth/context";
import { type CursorPosition } from "@/lib/platform/cursor";
import { ConflictError, NotFoundError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { keysetPage } from "@/lib/platform/keyset-page";
import { checkActions } from "./actions";
import { type CreateAutomationInput, presentAutomation, type UpdateAutomationInput } from "./schemas";

const MAX_AUTOMATIONS_PER_ACCOUNT = 100;

type Ctx = ServiceContext<"user">;

/** Oldest first, in keyset pages; `position` is the running order. */
export async function listAutomations({ ctx, limit, cursor }: { ctx: ServiceContext; limit: number; cursor?: CursorPosition }) {
  return keysetPage(ctx.db.select().from(automations).$dynamic(), {
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
  const rows = await ctx.db.select().from(automations).where(eq(automations.accountId, ctx.accountId)).orderBy(automations.position, automations.id);
  return rows.map(presentAutomation);
}

/** Serialises changes to one account's rule order (the account row is the lock). */
async function lockRuleOrder(tx: Executor, accountId: string): Promise<number> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
  const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(automations).where(eq(automations.accountId, accountId));
  return Number(n);
}

async function findRule(tx: Executor, { accountId, id }: { accountId: string; id: string }) {
  const [row] = await tx.select().from(automations).where(and(eq(automations.accountId, accountId), eq(automations.id, id))).for("update");
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
    const count = await lockRuleOrder(tx, ctx.accountId);
    if (count >= MAX_AUTOMATIONS_PER_ACCOUNT) throw new ConflictError(`An account can have at most ${MAX_AUTOMATIONS_PER_ACCOUNT} automations. Delete one first.`);
    const position = Math.min(input.position ?? count, count);
    await tx
      .update(automations)
      .set({ position: sql`${automations.position} + 1` })
      .where(and(eq(automations.accountId, ctx.accountId), gte(automations.position, position)));
    const now = new Date();
    const [row] = await tx
      .insert(automations)
      .values({
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
      })
      .returning();
    await auditChange(ctx, "automation.created", { type: "automation", id: row.id }, tx);
    return presentAutomation(row);
  });
}

/** Changes what is sent; a new `position` moves the rule there and closes the gap it left. */
export async function updateAutomation({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateAutomationInput }) {
  return ctx.db.transaction(async (tx) => {
    if (input.actions) await checkActions(tx, { accountId: ctx.accountId, actions: input.actions });
    const count = await lockRuleOrder(tx, ctx.accountId);
    const current = await findRule(tx, { accountId: ctx.accountId, id });
    let position = current.position;
    if (input.position !== undefined) {
      position = Math.min(input.position, count - 1);
      const inAccount = eq(automations.accountId, ctx.accountId);
      if (position < current.position) {
        await tx
          .update(automations)
          .set({ position: sql`${automations.position} + 1` })
          .where(and(inAccount, gte(automations.position, position), lt(automations.position, current.position)));
      } else if (position > current.position) {
        await tx
          .update(automations)
          .set({ position: sql`${automations.position} - 1` })
          .where(and(inAccount, gt(automations.position, current.position), lte(automations.position, position)));
      }
    }
    const [row] = await tx
      .update(automations)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.event !== undefined ? { event: input.event } : {}),
        ...(input.conditions !== undefined ? { conditions: input.conditions } : {}),
        ...(input.actions !== undefined ? { actions: input.actions, authorId: ctx.user.id } : {}),
        position,
        updatedAt: new Date(),
      })
      .where(eq(automations.id, current.id))
      .returning();
    await auditChange(ctx, "automation.updated", { type: "automation", id: row.id }, tx);
    return presentAutomation(row);
  });
}

export async function deleteAutomation({ ctx, id }: { ctx: Ctx; id: string }) {
  await ctx.db.transaction(async (tx) => {
    await lockRuleOrder(tx, ctx.accountId);
    const current = await findRule(tx, { accountId: ctx.accountId, id });
    await tx.delete(automations).where(eq(automations.id, current.id));
    await tx
      .update(automations)
      .set({ position: sql`${automations.position} - 1` })
      .where(and(eq(automations.accountId, ctx.accountId), gt(automations.position, current.position)));
    await auditChange(ctx, "automation.deleted", { type: "automation", id }, tx);
  });
}
