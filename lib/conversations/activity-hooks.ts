import type { Executor } from "@/db";
import { recordActivity } from "@/lib/activity/record-activity";

export type ConversationActivity = {
  accountId: string;
  conversationId: string;
  type: "snoozed" | "labeled" | "unlabeled";
  actor: { type: "user"; id: string; name: string } | { type: "automation" } | { type: "contact"; id: string; name?: string | null };
  data: Record<string, unknown>;
};

/**
 * The one place labels and snooze report to the conversation's activity trail , in the transaction of the change.
 */
export async function recordConversationActivity(tx: Executor, activity: ConversationActivity): Promise<void> {
  const actor =
    activity.actor.type === "contact" ? { type: "contact" as const, id: activity.actor.id, name: activity.actor.name ?? null } : activity.actor;
  await recordActivity(tx, { accountId: activity.accountId, conversationId: activity.conversationId, type: activity.type, actor, data: activity.data });
}
