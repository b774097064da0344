import type { ConversationWithContact } from "./schemas";
import { z } from "zod";
import type { SystemContext } from "@/lib/auth/context";
import type { Conversation } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { ConflictError, invalidField } from "@/lib/platform/errors";
import { recordEvent } from "@/lib/events/record-event";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { recordConversationActivity } from "./activity-hooks";
import { actor } from "./conversations";
import { presentConversation } from "./schemas";
import { assigneeIsLive, findConversation, lockAccountConversationRow, updateConversationRow } from "./store";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";

const MAX_SNOOZE_MS = 90 * 86_400_000;

/**
 * Parks an open or assigned conversation until `until` (in the future, at most 90 days
 * ahead). Snoozing a snoozed conversation moves its wake-up. The wake-up is a job row due at
 * `until`, written with the change; a customer's message wakes it earlier.
 */
export async function snoozeConversation({ ctx, id, until, now = new Date() }: { ctx: ServiceContext<"user">; id: string; until: Date; now?: Date }) {
  if (until.getTime() <= now.getTime()) throw invalidField("until", "must be in the future");
  if (until.getTime() > now.getTime() + MAX_SNOOZE_MS) throw invalidField("until", "must be at most 90 days ahead");
  return ctx.db.transaction(async (tx) => {
    const current = await findConversation(tx, { accountId: ctx.accountId, id, lock: true });
    if (current.status === "closed") throw new ConflictError("A closed conversation cannot be snoozed; reopen it first.", "invalid_transition");
    const row = await updateConversationRow(tx, { id: current.id, set: { status: "snoozed", snoozedUntil: until, updatedAt: now } });
    const conversation = presentConversation({ ...row, contact: current.contact });
    await recordEvent({ ...ctx, db: tx }, { accountId: ctx.accountId, type: "conversation.snoozed", data: { conversation, user: actor(ctx) } });
    await enqueueJob(tx, {
      kind: "conversation.wake",
      accountId: ctx.accountId,
      payload: { accountId: ctx.accountId, conversationId: row.id },
      runAt: until,
    });
    await recordConversationActivity(tx, {
      accountId: ctx.accountId,
      conversationId: row.id,
      type: "snoozed",
      actor: { type: "user", id: ctx.user.id, name: ctx.user.name },
      data: { until: until.toISOString() },
    });
    return conversation;
  });
}

/**
 * Ends a snooze in the caller's transaction: back to `assigned` when its assignee is still a
 * user of the account, else `open`; emits `conversation.reopened` (without a user: the clock
 * or the customer woke it).
 */
export async function wakeSnoozedConversation(
  ctx: SystemContext,
  { accountId, conversation, contact, now = new Date() }: { accountId: string; conversation: Conversation; contact: ConversationWithContact["contact"]; now?: Date },
) {
  const tx = ctx.db;
  const keep = await assigneeIsLive(tx, { accountId, userId: conversation.assignedTo });
  const row = await updateConversationRow(tx, {
    id: conversation.id,
    set: keep ? { status: "assigned", snoozedUntil: null, updatedAt: now } : { status: "open", snoozedUntil: null, assignedTo: null, assignedAt: null, updatedAt: now },
  });
  await recordEvent(ctx, { accountId, type: "conversation.reopened", data: { conversation: presentConversation({ ...row, contact }) } });
  return row;
}

const wakePayload = z.object({ accountId: z.string().min(1), conversationId: z.string().min(1) });

/**
 * The `conversation.wake` job: wakes the conversation when it is still snoozed and due. A job
 * left over from an earlier snooze (moved later, woken by a message, closed) does nothing.
 */
async function runWakeJob(ctx: SystemContext, { accountId, conversationId }: z.output<typeof wakePayload>, { now }: { now: Date }) {
  await ctx.db.transaction(async (tx) => {
    const current = await lockAccountConversationRow(tx, { accountId, id: conversationId });
    if (!current || current.status !== "snoozed" || !current.snoozedUntil || current.snoozedUntil.getTime() > now.getTime()) return;
    const { contact } = await findConversation(tx, { accountId, id: conversationId });
    await wakeSnoozedConversation({ ...ctx, db: tx }, { accountId, conversation: current, contact, now });
  });
}

export const wakeConversationJob = defineJob({ kind: "conversation.wake", schema: wakePayload, handler: (payload, job) => runWakeJob(job.system, payload, job) });

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "conversation.wake": PayloadOf<typeof wakeConversationJob>;
  }
}
