import { z } from "zod";
import { type BatchOutcome, defineJob, type JobBatchHandler, OUTCOME_RECORDED, type PayloadOf } from "@/lib/jobs/define";
import { DELIVERIES_SOURCE } from "@/lib/jobs/source";
import { attemptDeliveries } from "./attempt-delivery";
import type { Attempted } from "./record-attempt";

/** The `webhook.deliver` payload: the delivery, and its endpoint (it groups the jobs for the per-endpoint cap). */
const deliveryJobPayload = z.object({ deliveryId: z.string().min(1), webhookId: z.string().optional() });
type DeliveryJobPayload = z.output<typeof deliveryJobPayload>;

/** What the runner writes for a delivery's job once its attempt settled: nothing more, done, or due again. */
function jobOutcomeOf({ outcome, leaseEnded }: Attempted): BatchOutcome {
  // The statement that recorded the answer also ended the claim's lease and set the next attempt.
  if (leaseEnded) return OUTCOME_RECORDED;
  if (outcome.done || !outcome.nextAttemptAt) return;
  return { retryAt: new Date(outcome.nextAttemptAt), error: outcome.error ?? undefined };
}

/** Each claimed delivery's due attempt, all through one call of the attempt path. */
const runDeliveryBatch: JobBatchHandler<DeliveryJobPayload> = (items) => {
  if (!items.length) return [];
  const requests = items.map(({ payload, ctx }) => ({
    deliveryId: payload.deliveryId,
    attempt: "due" as const,
    now: ctx.now,
    abandoned: ctx.takeover,
    // A delivery claimed from its own row: the lease ends in the statement that records the answer.
    claims: ctx.source === DELIVERIES_SOURCE && ctx.claimed ? ctx.attempt : null,
  }));
  return attemptDeliveries(items[0].ctx.system, requests).map((attempted) => attempted.then(jobOutcomeOf));
};

/**
 * The `webhook.deliver` job: a delivery's next attempt (the local runner claims deliveries from
 * their own rows; with JOBS_BACKEND=inngest a job row relays it to Inngest). One at a time, or
 * many together on the local runner: a single delivery is a batch of one.
 */
export const deliverWebhookJob = defineJob({
  kind: "webhook.deliver",
  schema: deliveryJobPayload,
  handler: (payload, ctx) => runDeliveryBatch([{ payload, ctx }])[0],
  batch: runDeliveryBatch,
});

declare module "@/lib/jobs/define" {
  interface JobPayloads {
    "webhook.deliver": PayloadOf<typeof deliverWebhookJob>;
  }
}
