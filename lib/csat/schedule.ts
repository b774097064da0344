import type { Executor } from "@/db";
import type { Conversation } from "@/db/schema";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { loadCsatConfig } from "./config";

/**
 * Called in the transaction that closes a conversation: when the survey is on and the customer
 * has not rated this conversation yet, a `csat.survey` job will send it. The job names the close
 * it belongs to, so a retried job, or one overtaken by a reopening, asks nothing twice.
 */
export async function scheduleSurveyOnClose(tx: Executor, { accountId, conversation }: { accountId: string; conversation: Conversation }) {
  if (conversation.csatScore !== null || !conversation.closedAt) return;
  const config = await loadCsatConfig(tx, accountId);
  if (!config.enabled) return;
  await enqueueJob(tx, {
    kind: "csat.survey",
    accountId,
    payload: { accountId, conversationId: conversation.id, closedAt: conversation.closedAt.toISOString() },
  });
}
