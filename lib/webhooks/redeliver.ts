import "server-only";
import { ConflictError, NotFoundError } from "@/lib/platform/errors";
import { attemptDelivery } from "./attempt-delivery";
import type { ServiceContext } from "@/lib/auth/context";
import { findAttempt, findDelivery, findWebhook } from "./store";
import { presentAttempt } from "./schemas";

/**
 * POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry: one more attempt of the same
 * event (same body, same event id), sent now and answered with its log entry.
 * A delivery still in its retry ladder has its next scheduled attempt brought forward
 * (a failure continues the ladder from now); a finished one (succeeded or failed) gets an
 * extra attempt numbered after the last, which changes nothing if it fails and marks the
 * delivery succeeded if it works.
 */
export async function redeliver({ ctx, id, deliveryId }: { ctx: ServiceContext<"user">; id: string; deliveryId: string }) {
  const db = ctx.db;
  const webhook = await findWebhook(db, ctx.accountId, id);
  const delivery = await findDelivery(db, { accountId: ctx.accountId, webhookId: id, id: deliveryId });
  if (!delivery) throw new NotFoundError("Delivery");
  if (delivery.eventType === "webhook.verified") {
    throw new ConflictError("A verification challenge is not redelivered; use POST /v1/webhooks/{id}/verify.");
  }
  if (webhook.status !== "active") {
    throw new ConflictError(`The webhook is ${webhook.status.replace("_", " ")}; enable or verify it before redelivering.`);
  }
  const result = await attemptDelivery(ctx, { deliveryId, attempt: delivery.status === "pending" ? delivery.attempts + 1 : "next" });
  if (result.status === "in_flight") throw new ConflictError("An attempt of this delivery is in progress; try again when it has finished.");
  if (result.status === "skipped" || !result.attemptId) {
    throw new ConflictError(`The delivery cannot be retried now: ${result.error ?? "it has changed meanwhile"}.`);
  }
  return presentAttempt((await findAttempt(db, { accountId: ctx.accountId, id: result.attemptId }))!);
}
