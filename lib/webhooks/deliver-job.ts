import { eq } from "drizzle-orm";
import { z } from "zod";
import type { SystemContext } from "@/lib/auth/context";
import { webhookDeliveries } from "@/db/schema";
import type { JobContext, JobOutcome } from "@/lib/jobs/runner";
import { attemptDelivery } from "./attempt-delivery";

export const deliveryJobPayload = z.object({ deliveryId: z.string().min(1) });

/**
 * The local scheduler of a delivery: one `webhook.deliver` job per delivery, run when the
 * delivery's next attempt is due. It runs that attempt and asks the runner to come back
 * when the retry schedule says so.
 */
export async function runDeliveryJob(system: SystemContext, payload: Record<string, unknown>, ctx: JobContext): Promise<JobOutcome> {
  const parsed = deliveryJobPayload.safeParse(payload);
  if (!parsed.success) return { failed: "the job payload has no deliveryId" };
  const { deliveryId } = parsed.data;
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
