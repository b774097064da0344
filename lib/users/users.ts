import "server-only";
import { isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { type User, users } from "@/db/schema";
import { assertEmailFree } from "@/lib/accounts/create-account";
import type { CursorPosition } from "@/lib/platform/cursor";
import { keysetPage } from "@/lib/platform/keyset-page";
import { hashPassword } from "@/lib/auth/password";
import { announceAuthChange } from "@/lib/auth/token-cache";
import type { ServiceContext } from "@/lib/auth/context";
import { ConflictError, NotFoundError } from "@/lib/platform/errors";
import { actor } from "@/lib/conversations/conversations";
import { presentConversation } from "@/lib/conversations/schemas";
import { findConversation } from "@/lib/conversations/store";
import { recordAudit, userActor as auditActor } from "@/lib/audit/record-audit";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { recordActivity } from "@/lib/activity/record-activity";
import { userActor } from "@/lib/activity/schemas";
import { presentUser } from "@/lib/auth/user-identity";
import { loadWorkflowSettings } from "@/lib/teams/assignment";
import type { CreateUserInput, UpdateUserInput } from "./schemas";
import { countOtherAdmins, findLiveUser, insertUser, lockAdmins, releaseAssignedConversations, revokeUserTokens, selectUsers, updateUserRow } from "./store";

export async function listUsers({ ctx, limit, cursor }: { ctx: ServiceContext<"user">; limit: number; cursor?: CursorPosition }) {
  const settings = await loadWorkflowSettings(ctx.db, ctx.accountId);
  return keysetPage(selectUsers(ctx.db), {
    table: users,
    accountId: ctx.accountId,
    where: [isNull(users.deletedAt)],
    order: "asc",
    limit,
    cursor,
    position: (u) => ({ t: u.createdAt, id: u.id }),
    present: (u) => presentUser(u, settings),
  });
}

async function findUser(tx: Executor, accountId: string, id: string, lock = false): Promise<User> {
  const user = await findLiveUser(tx, { accountId, id, lock });
  if (!user) throw new NotFoundError("User");
  return user;
}

export async function getUser({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  return presentUser(await findUser(ctx.db, ctx.accountId, id), await loadWorkflowSettings(ctx.db, ctx.accountId));
}

export async function createUser({ ctx, input }: { ctx: ServiceContext<"user">; input: CreateUserInput }) {
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    await assertEmailFree(tx, input.email);
    const now = new Date();
    const user = await insertUser(tx, { id: newId("user", now), accountId: ctx.accountId, name: input.name, email: input.email, passwordHash, role: input.role, createdAt: now, updatedAt: now });
    const output = presentUser(user);
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "user.created", data: { user: output } });
    await recordAudit(tx, { accountId: ctx.accountId, actor: auditActor(ctx), action: "user.created", target: { type: "user", id: user.id } });
    return output;
  });
}

const otherAdmins = (tx: Executor, accountId: string, exceptId: string) => countOtherAdmins(tx, { accountId, exceptId });

export async function updateUser({ ctx, id, input }: { ctx: ServiceContext<"user">; id: string; input: UpdateUserInput }) {
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return ctx.db.transaction(async (tx) => {
    await lockAdmins(tx, { accountId: ctx.accountId });
    const user = await findUser(tx, ctx.accountId, id, true);
    if (user.role === "admin" && input.role === "agent" && (await otherAdmins(tx, ctx.accountId, id)) === 0) {
      throw new ConflictError("The last administrator cannot be demoted. Promote someone else first.");
    }
    if (input.email && input.email !== user.email.toLowerCase()) await assertEmailFree(tx, input.email);
    const updated = await updateUserRow(tx, {
      id,
      set: {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(passwordHash ? { passwordHash } : {}),
        updatedAt: new Date(),
      },
    });
    if (passwordHash) {
      // A new password signs the user out of every session.
      await revokeUserTokens(tx, { userId: id, at: new Date(), sessionsOnly: true });
    }
    const output = presentUser(updated);
    await announceAuthChange(tx);
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "user.updated", data: { user: output } });
    const roleChanged = input.role !== undefined && input.role !== user.role;
    await recordAudit(tx, { accountId: ctx.accountId, actor: auditActor(ctx), action: roleChanged ? "user.role_changed" : "user.updated", target: { type: "user", id } });
    return output;
  });
}

/**
 * Removes a user: their tokens stop working, their conversations return to the open
 * queue, and their messages stay attributed to them (the row is kept, marked deleted).
 */
export async function deleteUser({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  await ctx.db.transaction(async (tx) => {
    await lockAdmins(tx, { accountId: ctx.accountId });
    const user = await findUser(tx, ctx.accountId, id, true);
    if (user.role === "admin" && (await otherAdmins(tx, ctx.accountId, id)) === 0) {
      throw new ConflictError("The last administrator cannot be deleted.");
    }
    const now = new Date();
    await updateUserRow(tx, { id, set: { deletedAt: now, updatedAt: now } });
    await revokeUserTokens(tx, { userId: id, at: now });
    await announceAuthChange(tx);
    const released = await releaseAssignedConversations(tx, { accountId: ctx.accountId, userId: id, at: now });
    // The same event as an unassign by hand: the whole conversation and who acted.
    for (const { id: conversationId } of released) {
      const conversation = await findConversation(tx, { accountId: ctx.accountId, id: conversationId });
      await recordActivity(tx, {
        accountId: ctx.accountId,
        conversationId,
        type: "unassigned",
        actor: userActor(ctx.user),
        data: { previous_assignee: { id: user.id, name: user.name }, reason: "user_deleted" },
        at: now,
      });
      await recordEvent({ ...ctx, db: tx }, {
        accountId: ctx.accountId,
        type: "conversation.unassigned",
        data: { conversation: presentConversation(conversation), user: actor(ctx) },
      });
    }
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "user.deleted", data: { user: presentUser(user) } });
    await recordAudit(tx, { accountId: ctx.accountId, actor: auditActor(ctx), action: "user.deleted", target: { type: "user", id } });
  });
}
