import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db";
import { conversations } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { recordActivity } from "@/lib/activity/record-activity";
import { userActor } from "@/lib/activity/schemas";
import { recordEvent } from "@/lib/events/record-event";
import { loadInboxSettings } from "@/lib/conversations/inbox-settings";
import { presentUserRef } from "@/lib/auth/user-identity";
import { presentAssignment } from "./schemas";

/**
 * A person's reply in an unassigned (open) conversation makes it theirs, unless the account
 * turned `auto_assign_on_reply` off: the same `conversation.assigned` as an assign by hand,
 * in the reply's transaction. The caller holds the conversation's row lock.
 */
export async function autoAssignOnReply(tx: Executor, { ctx, conversationId }: { ctx: ServiceContext<"user">; conversationId: string }) {
  const settings = await loadInboxSettings(tx, ctx.accountId);
  if (!settings.auto_assign_on_reply) return null;
  const now = new Date();
  const [row] = await tx
    .update(conversations)
    .set({ status: "assigned", assignedTo: ctx.user.id, assignedAt: now, updatedAt: now })
    .where(
      and(
        eq(conversations.accountId, ctx.accountId),
        eq(conversations.id, conversationId),
        eq(conversations.status, "open"),
        isNull(conversations.assignedTo),
      ),
    )
    .returning();
  if (!row) return null;
  await recordEvent({ ...ctx, db: tx }, {
    accountId: ctx.accountId,
    type: "conversation.assigned",
    data: { conversation: presentAssignment(row), user: presentUserRef(ctx.user) },
  });
  await recordActivity(tx, {
    accountId: ctx.accountId,
    conversationId,
    type: "assigned",
    actor: userActor(ctx.user),
    data: { assignee: { id: ctx.user.id, name: ctx.user.name }, auto: true },
    at: now,
  });
  return row;
}
