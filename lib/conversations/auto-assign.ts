import type { ServiceContext } from "@/lib/auth/context";
import { recordActivity } from "@/lib/activity/record-activity";
import { userActor } from "@/lib/activity/schemas";
import { recordEvent } from "@/lib/events/record-event";
import { loadInboxSettings } from "@/lib/conversations/inbox-settings";
import { presentUserRef } from "@/lib/auth/user-identity";
import { presentAssignment } from "./schemas";
import { assignIfWaiting } from "./store";

/**
 * A person's reply in an unassigned (open) conversation makes it theirs, unless the account
 * turned `auto_assign_on_reply` off: the same `conversation.assigned` as an assign by hand,
 * in the reply's transaction. The caller holds the conversation's row lock.
 */
export async function autoAssignOnReply(ctx: ServiceContext<"user">, { conversationId }: { conversationId: string }) {
  const tx = ctx.db;
  const settings = await loadInboxSettings(tx, ctx.accountId);
  if (!settings.auto_assign_on_reply) return null;
  const now = new Date();
  const row = await assignIfWaiting(tx, { accountId: ctx.accountId, id: conversationId, userId: ctx.user.id, at: now });
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
