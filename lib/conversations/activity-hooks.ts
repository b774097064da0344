import type { Executor } from "@/db";

export type ConversationActivity = {
  accountId: string;
  conversationId: string;
  type: "snoozed" | "labeled" | "unlabeled";
  actor: { type: "user"; id: string; name: string } | { type: "automation" } | { type: "contact"; id: string; name?: string | null };
  data: Record<string, unknown>;
};

/**
 * The one place labels and snooze report to the conversation's activity trail (SPEC section 12,
 * Activity). Called in the transaction of the change; point it at the activity verb where that
 * trail is recorded.
 */
export async function recordConversationActivity(tx: Executor, activity: ConversationActivity): Promise<void> {
  void tx;
  void activity;
}
