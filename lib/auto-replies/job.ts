import { z } from "zod";
import { planAssistantReply } from "@/lib/assistant/out-of-hours";
import { defineJob, type PayloadOf } from "@/lib/jobs/define";
import { runAutoReplies, type SendAutomatedMessage } from "./auto-replies";

const autoReplyJobPayload = z.object({
  accountId: z.string().min(1),
  conversationId: z.string().min(1),
  messageId: z.string().min(1),
});

/**
 * The `message.auto-reply` job: the inbound path enqueues `{accountId, conversationId, messageId}`
 * in its transaction, and this answers it with the given send path. A run is idempotent
 * (see runAutoReplies), so the runner's at-least-once retries send nothing twice.
 */
export function createAutoReplyJob(send: SendAutomatedMessage, { clock = () => new Date() }: { clock?: () => Date } = {}) {
  return defineJob({
    kind: "message.auto-reply",
    schema: autoReplyJobPayload,
    handler: async (payload, { system }) => {
      // The answer assistant may wait seconds for its model: decided before the transaction.
      const assistant = await planAssistantReply(system.db, payload);
      await runAutoReplies(system, { ...payload, send, now: clock(), assistant });
    },
  });
}

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "message.auto-reply": PayloadOf<ReturnType<typeof createAutoReplyJob>>;
  }
}

