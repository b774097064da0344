import { eq } from "drizzle-orm";
import { z } from "zod";
import { webhookDeliveries } from "@/db/schema";
import type { JobContext, JobOutcome } from "@/lib/jobs/define";
import { attemptDelivery } from "./attempt-delivery";

/** The `webhook.deliver` payload: the delivery, and its endpoint (it groups the jobs for the per-endpoint cap). */
export const deliveryJobPayload = z.object({ deliveryId: z.string().min(1), webhookId: z.string().optional() });
export type DeliveryJobPayload = z.output<typeof deliveryJobPayload>;

/**
 * A delivery's due attempt through the attempt function (attemptDelivery, as Inngest runs it):
 * the batch path (./deliver-batch.ts) hands it the cases it does not take itself. It runs that
 * attempt and asks the runner to come back when the retry schedule says so.
 */
export async function runDeliveryJob({ deliveryId }: DeliveryJobPayload, ctx: JobContext): Promise<JobOutcome> {
  const { system } = ctx;
  const [delivery] = await system.db
    .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attempts, nextAttemptAt: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!delivery || delivery.status !== "pending") return;
  // A manual "retry now" may have run this attempt already and moved the next one later.
  if (delivery.nextAttemptAt && delivery.nextAttemptAt > ctx.now) return { retryAt: delivery.nextAttemptAt };
  const result = await attemptDelivery(system, { deliveryId, attempt: delivery.attempts + 1, now: ctx.now, abandoned: ctx.takeover });
  if (result.done || !result.nextAttemptAt) return;
  return { retryAt: new Date(result.nextAttemptAt), error: result.error ?? undefined };
}
