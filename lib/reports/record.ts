import type { Executor } from "@/db";
import type { Conversation } from "@/db/schema";
import { newId } from "@/lib/platform/ids";
import { insertReportingEvent } from "./store/record";

/**
 * Records a close as a resolution, in the close's transaction: the assignee at that moment keeps
 * it, and its range is the moment of the close, whatever happens to the conversation later
 * (a reopening, another assignee, a second close). The resolution time runs from the
 * conversation's creation, or its latest reopening, to the close.
 */
export async function recordResolution(
  tx: Executor,
  { accountId, conversation, actorId }: { accountId: string; conversation: Pick<Conversation, "id" | "assignedTo" | "createdAt" | "openedAt" | "closedAt">; actorId?: string | null },
): Promise<void> {
  const closedAt = conversation.closedAt;
  if (!closedAt) return;
  const startedAt = conversation.openedAt ?? conversation.createdAt;
  await insertReportingEvent(tx, {
    id: newId("reportingEvent", closedAt),
    accountId,
    conversationId: conversation.id,
    name: "conversation_resolved",
    userId: conversation.assignedTo,
    actorId: actorId ?? null,
    valueS: Math.max(0, (closedAt.getTime() - startedAt.getTime()) / 1000),
    startedAt,
    createdAt: closedAt,
  });
}
