import { randomBytes } from "node:crypto";
import type { SystemContext } from "@/lib/auth/context";
import type { Webhook } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import type { ServiceContext } from "@/lib/auth/context";
import { failStaleChallenges, findWebhook, insertDelivery, insertPendingAttempt, updateAttempt, updateDelivery, updateWebhookAtUrl } from "./store";
import { presentWebhook, VERIFICATION_TIMEOUT_MS } from "./schemas";
import { type SendResult, sendSigned } from "./send";
import { openWebhookSecret } from "./secret-at-rest";

function failureReason(result: SendResult, timeoutMs: number): string {
  if (result.error?.startsWith("refused: ")) return `The URL was refused: ${result.error.slice("refused: ".length)}`;
  if (result.error?.startsWith("timeout")) return `The endpoint did not answer within ${timeoutMs / 1000} s.`;
  if (result.status === null) return `The endpoint could not be reached: ${result.error ?? "connection failed"}.`;
  if (result.status >= 300 && result.status < 400) return `The endpoint answered ${result.status} (a redirect); redirects are not followed.`;
  if (result.status !== 200) return `The endpoint answered ${result.status}; it must answer 200 with the challenge as the body.`;
  return "The endpoint answered 200, but the body was not exactly the challenge.";
}

/**
 * The verification challenge, run synchronously by the caller (create, PATCH, /verify):
 * a signed `webhook.verified` event with a random challenge, recorded as an event and as a
 * delivery of this webhook only (so it shows in the log). A 200 whose body is exactly the
 * challenge, within 10 s, makes the webhook active; anything else leaves it
 * `verification_failed` with the reason.
 */
export async function runVerification(ctx: SystemContext, { accountId, webhookId }: { accountId: string; webhookId: string }): Promise<Webhook> {
  const db = ctx.db;
  const challenge = randomBytes(24).toString("base64url");
  const prepared = await db.transaction(async (tx) => {
    const webhook = await findWebhook(tx, accountId, webhookId, { lock: true });
    // A challenge left unanswered by a server that stopped mid-way would otherwise stay pending forever.
    const interrupted = "interrupted: the server stopped before the answer was recorded";
    await failStaleChallenges(tx, { accountId, webhookId, before: new Date(Date.now() - VERIFICATION_TIMEOUT_MS - 5_000), error: interrupted });
    const envelope = await recordEvent({ ...ctx, db: tx }, { accountId, type: "webhook.verified", data: { webhook_id: webhookId, challenge } });
    const now = new Date();
    const deliveryId = newId("delivery", now);
    const payload = JSON.stringify(envelope);
    await insertDelivery(tx, {
      id: deliveryId,
      accountId,
      webhookId,
      eventId: envelope.id,
      eventType: envelope.type,
      payload,
      status: "pending",
      attempts: 1,
      createdAt: now,
      updatedAt: now,
    });
    const attemptId = newId("attempt", now);
    await insertPendingAttempt(tx, { id: attemptId, accountId, webhookId, deliveryId, eventId: envelope.id, eventType: envelope.type, attempt: 1, attemptedAt: now });
    return { webhook, envelope, deliveryId, payload, attemptId };
  });

  const timeoutMs = Math.min(VERIFICATION_TIMEOUT_MS, getEnv().WEBHOOK_TIMEOUT_MS);
  const result = await sendSigned({
    url: prepared.webhook.url,
    secret: openWebhookSecret(prepared.webhook),
    body: prepared.payload,
    eventId: prepared.envelope.id,
    eventType: prepared.envelope.type,
    deliveryId: prepared.deliveryId,
    attempt: 1,
    timeoutMs,
  });
  const answered = result.ok && result.status === 200 && result.body === challenge;
  const reason = answered ? null : failureReason(result, timeoutMs);

  return db.transaction(async (tx) => {
    const finishedAt = new Date();
    await updateAttempt(
      tx,
      { accountId, id: prepared.attemptId },
      { status: answered ? "succeeded" : "failed", responseStatus: result.status, responseBody: result.body, durationMs: result.durationMs, error: answered ? null : (result.error ?? reason) },
    );
    await updateDelivery(
      tx,
      { accountId, id: prepared.deliveryId },
      { status: answered ? "succeeded" : "failed", lastError: reason, completedAt: finishedAt, updatedAt: finishedAt },
    );
    // Only the URL that was challenged is confirmed: a PATCH that changed it meanwhile runs its own.
    const updated = await updateWebhookAtUrl(
      tx,
      { accountId, id: webhookId, url: prepared.webhook.url },
      answered
        ? { status: "active", statusReason: null, consecutiveFailures: 0, updatedAt: finishedAt }
        : { status: "verification_failed", statusReason: reason, updatedAt: finishedAt },
    );
    return updated ?? (await findWebhook(tx, accountId, webhookId));
  });
}

/** POST /v1/webhooks/{id}/verify: runs the challenge again and answers with the outcome. */
export async function verifyWebhook({ ctx, id }: { ctx: ServiceContext<"user">; id: string }) {
  await findWebhook(ctx.db, ctx.accountId, id);
  return presentWebhook(await runVerification(ctx, { accountId: ctx.accountId, webhookId: id }));
}
