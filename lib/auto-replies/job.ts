import { z } from "zod";
import type { SystemContext } from "@/lib/auth/context";
import { planAssistantReply } from "@/lib/assistant/out-of-hours";
import type { JobHandler } from "@/lib/jobs/runner";
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
export function createAutoReplyJobHandler(ctx: SystemContext, send: SendAutomatedMessage, { clock = () => new Date() }: { clock?: () => Date } = {}): JobHandler {
  return async (payload) => {
    const parsed = autoReplyJobPayload.safeParse(payload);
    if (!parsed.success) return { failed: `invalid payload: ${parsed.error.issues[0]?.message ?? "unknown"}` };
    // The answer assistant may wait seconds for its model: decided before the transaction.
    const assistant = await planAssistantReply(ctx.db, parsed.data);
    await runAutoReplies(ctx, { ...parsed.data, send, now: clock(), assistant });
  };
}
