import { eventType, NonRetriableError, RetryAfterError } from "inngest";
import { z } from "zod";
import { getEnv } from "@/lib/platform/env";
import { systemContext } from "@/lib/server/context";
import { attemptDelivery } from "@/lib/webhooks/attempt-delivery";
import type { AttemptOutcome } from "@/lib/webhooks/record-attempt";
import { MAX_DELIVERY_ATTEMPTS } from "@/lib/webhooks/schemas";
import { inngest } from "../client";

export const deliveryRequestedData = z.object({ deliveryId: z.string().min(1) });

export const deliveryRequested = eventType("chorus/webhook.delivery.requested", { schema: deliveryRequestedData });

/** "60s" for whole seconds (the documented schedule), milliseconds for a shortened test schedule. */
export function sleepDuration(seconds: number): string {
  return Number.isInteger(seconds) ? `${seconds}s` : `${Math.round(seconds * 1000)}ms`;
}

/**
 * One run per delivery: attempt N in step `attempt-N`, then `wait-N` on the retry schedule
 * (60 s, 5 min, 15 min, 1 h by default). Each step is a batch of one through the attempt path
 * the local runner uses; Inngest memoises finished steps, and the attempt path itself returns
 * the recorded outcome if a step is executed again, so attempt N is never sent twice.
 */
export const deliverWebhook = inngest.createFunction(
  { id: "deliver-webhook", name: "Deliver a webhook", triggers: [deliveryRequested] },
  async ({ event, step }) => {
    const parsed = deliveryRequestedData.safeParse(event.data);
    if (!parsed.success) throw new NonRetriableError(`invalid event data: ${parsed.error.issues[0]?.message ?? "deliveryId"}`);
    const { deliveryId } = parsed.data;
    const schedule = getEnv().WEBHOOK_RETRY_SCHEDULE;
    let last: AttemptOutcome | undefined;
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      last = await step.run(`attempt-${attempt}`, async () => {
        const result = await attemptDelivery(systemContext(), { deliveryId, attempt });
        // Another worker is sending this very attempt: look again once it must have finished.
        if (result.status === "in_flight" && result.nextAttemptAt) {
          throw new RetryAfterError(`attempt ${attempt} of ${deliveryId} is in flight elsewhere`, new Date(result.nextAttemptAt));
        }
        return result;
      });
      if (last.done) break;
      if (attempt < MAX_DELIVERY_ATTEMPTS) await step.sleep(`wait-${attempt}`, sleepDuration(schedule[attempt - 1]));
    }
    return last;
  },
);
