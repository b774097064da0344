import type { Executor } from "@/db";
import { newId } from "@/lib/platform/ids";
import { type ActivityActor, type ActivityOutput, type ActivityType, presentActivity } from "./schemas";
import { insertActivities, insertActivity } from "./store";

type ActivityEntry = { accountId: string; conversationId: string; type: ActivityType; actor: ActivityActor; data?: Record<string, unknown>; at: Date };

// An automation acts in nobody's name: the trail names no person for it.
const activityRow = (input: ActivityEntry) => ({
  id: newId("activity", input.at),
  accountId: input.accountId,
  conversationId: input.conversationId,
  type: input.type,
  actorType: input.actor.type,
  actorId: input.actor.type === "automation" ? null : (input.actor.id ?? null),
  actorName: input.actor.type === "automation" ? null : input.actor.name,
  data: input.data ?? {},
  createdAt: input.at,
});

/**
 * Adds one entry to a conversation's activity trail, in the caller's transaction so that the
 * trail and the change it describes commit together. Every verb that changes a conversation
 * in a way a teammate should see (assign, close, snooze, label…) calls this.
 */
export async function recordActivity(tx: Executor, input: Omit<ActivityEntry, "at"> & { at?: Date }): Promise<ActivityOutput> {
  const at = input.at ?? new Date();
  const row = await insertActivity(tx, activityRow({ ...input, at }));
  return presentActivity(row);
}

/** Several entries of the trail in one statement (a campaign starting many conversations at once). */
export async function recordActivities(tx: Executor, inputs: ActivityEntry[]) {
  if (!inputs.length) return;
  await insertActivities(tx, inputs.map(activityRow));
}
