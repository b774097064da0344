import { and, eq, sql } from "drizzle-orm";
import type { SystemContext } from "@/lib/auth/context";
import { type WebhookAttempt, type WebhookDelivery, webhookAttempts, webhookDeliveries, webhooks } from "@/db/schema";
import { getEnv } from "@/lib/platform/env";
import { recordEvent } from "@/lib/events/record-event";
import { newId } from "@/lib/platform/ids";
import { MAX_DELIVERY_ATTEMPTS } from "./schemas";
import { type SendResult, sendSigned } from "./send";
import { openWebhookSecret } from "./secret-at-rest";

/** What one call of the attempt function did; JSON-safe, because Inngest stores it as step output. */
export type AttemptOutcome = {
  deliveryId: string;
  attempt: number;
  /**
   * succeeded / failed: the attempt ran (now, or earlier when `replayed`); skipped: nothing
   * to send (delivery finished or gone, webhook not active); in_flight: another process is
   * sending this very attempt right now.
   */
  status: "succeeded" | "failed" | "skipped" | "in_flight";
  /** No further automatic attempt follows. */
  done: boolean;
  /** When the next automatic attempt is due, or (in_flight) when the attempt may be taken over. */
  nextAttemptAt: string | null;
  /** The attempt had already completed: its recorded outcome is returned and nothing was sent. */
  replayed: boolean;
  attemptId: string | null;
  responseStatus: number | null;
  error: string | null;
};

/**
 * How long past the timeout an unfinished attempt row is still presumed alive. After that
 * the process that started it is taken to have died, and the attempt is sent again.
 */
export const IN_FLIGHT_GRACE_MS = 15_000;

/**
 * scheduled: an attempt of the automatic ladder (first attempt and 4 retries).
 * redelivery: an extra, manual attempt of a delivery that has already finished.
 */
export type Mode = "scheduled" | "redelivery";

const outcome = (deliveryId: string, attempt: number, fields: Partial<AttemptOutcome> & Pick<AttemptOutcome, "status" | "done">): AttemptOutcome => ({
  deliveryId,
  attempt,
  nextAttemptAt: null,
  replayed: false,
  attemptId: null,
  responseStatus: null,
  error: null,
  ...fields,
});

function recorded(row: WebhookAttempt, delivery: WebhookDelivery): AttemptOutcome {
  return outcome(delivery.id, row.attempt, {
    status: row.status === "succeeded" ? "succeeded" : "failed",
    done: row.status === "succeeded" || delivery.status !== "pending",
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    replayed: true,
    attemptId: row.id,
    responseStatus: row.responseStatus,
    error: row.error,
  });
}

/**
 * The one attempt function both schedulers call (the local runner's `webhook.deliver` job
 * and the Inngest function's `attempt-N` steps). Idempotent per (delivery, attempt): the
 * attempt row is written before anything is sent, so a repeated call for an attempt that
 * has completed returns the recorded outcome without sending again, and a call for an
 * attempt whose process died half-way sends it again (at-least-once, same event id).
 */
export async function attemptDelivery(ctx: SystemContext, { deliveryId, attempt, now, abandoned }: { deliveryId: string; attempt: number; now?: Date; abandoned?: boolean }) {
  return runAttempt(ctx, { deliveryId, attempt, mode: "scheduled", now, abandoned });
}

export async function runAttempt(
  ctx: SystemContext,
  {
    deliveryId,
    attempt,
    mode,
    now = new Date(),
    abandoned = false,
  }: {
    deliveryId: string;
    /** "next": one past the highest attempt so far (manual redelivery). */
    attempt: number | "next";
    mode: Mode;
    now?: Date;
    /**
     * The job that ran this attempt before lost its claim while running (its process died): an
     * unfinished attempt row is abandoned however recent it is, and is sent again at once.
     */
    abandoned?: boolean;
  },
): Promise<AttemptOutcome> {
  const env = getEnv();
  const db = ctx.db;
  const staleBefore = abandoned ? Number.POSITIVE_INFINITY : now.getTime() - env.WEBHOOK_TIMEOUT_MS - IN_FLIGHT_GRACE_MS;

  const start = await db.transaction(async (tx) => {
    // The delivery row lock serialises concurrent calls for the same delivery.
    const [row] = await tx
      .select({ delivery: webhookDeliveries, webhook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhookDeliveries.id, deliveryId))
      .for("update", { of: webhookDeliveries });
    if (!row) return { kind: "done" as const, result: outcome(deliveryId, typeof attempt === "number" ? attempt : 0, { status: "skipped", done: true, error: "the delivery no longer exists" }) };
    const { delivery, webhook } = row;

    let number: number;
    if (attempt === "next") {
      const [{ highest }] = await tx
        .select({ highest: sql<number>`coalesce(max(${webhookAttempts.attempt}), 0)::int` })
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, deliveryId));
      number = highest + 1;
    } else {
      number = attempt;
    }

    const sendable =
      webhook.status === "active" && (mode === "redelivery" || (delivery.status === "pending" && number <= MAX_DELIVERY_ATTEMPTS));
    const insertAttempt = async () => {
      const attemptedAt = new Date();
      const [inserted] = await tx
        .insert(webhookAttempts)
        .values({
          id: newId("attempt", attemptedAt),
          accountId: delivery.accountId,
          webhookId: webhook.id,
          deliveryId,
          eventId: delivery.eventId,
          eventType: delivery.eventType,
          attempt: number,
          status: "pending",
          attemptedAt,
        })
        .onConflictDoNothing()
        .returning();
      return inserted;
    };

    // The common case in one statement: this attempt has not been made yet.
    if (sendable) {
      const attemptRow = await insertAttempt();
      if (attemptRow) return { kind: "send" as const, delivery, webhook, attemptRow };
    }

    const [existing] = await tx
      .select()
      .from(webhookAttempts)
      .where(and(eq(webhookAttempts.deliveryId, deliveryId), eq(webhookAttempts.attempt, number)));
    if (existing) {
      if (existing.status !== "pending") return { kind: "done" as const, result: recorded(existing, delivery) };
      if (existing.attemptedAt.getTime() > staleBefore) {
        return {
          kind: "done" as const,
          result: outcome(deliveryId, number, {
            status: "in_flight",
            done: false,
            attemptId: existing.id,
            nextAttemptAt: new Date(existing.attemptedAt.getTime() + env.WEBHOOK_TIMEOUT_MS + IN_FLIGHT_GRACE_MS).toISOString(),
          }),
        };
      }
      // Its process died before recording an answer; the receiver may or may not have seen it.
      if (sendable) {
        // Sent again, as a new row so that the log's order key (when the attempt started) stays immutable.
        await tx.delete(webhookAttempts).where(eq(webhookAttempts.id, existing.id));
        const attemptRow = await insertAttempt();
        if (attemptRow) return { kind: "send" as const, delivery, webhook, attemptRow };
      } else {
        await tx
          .update(webhookAttempts)
          .set({ status: "failed", error: "interrupted: the process stopped during the attempt" })
          .where(eq(webhookAttempts.id, existing.id));
      }
    }

    if (webhook.status !== "active") {
      if (mode === "scheduled" && delivery.status === "pending") {
        // Deliveries of a disabled (or unverified) webhook stop where they are.
        await tx
          .update(webhookDeliveries)
          .set({ status: "failed", lastError: `stopped: the webhook is ${webhook.status}`, nextAttemptAt: null, completedAt: new Date(), updatedAt: new Date() })
          .where(eq(webhookDeliveries.id, deliveryId));
      }
      return { kind: "done" as const, result: outcome(deliveryId, number, { status: "skipped", done: true, error: `the webhook is ${webhook.status}` }) };
    }
    const why = delivery.status !== "pending" ? `the delivery has ${delivery.status}` : `attempt ${number} is past the last automatic attempt`;
    return { kind: "done" as const, result: outcome(deliveryId, number, { status: "skipped", done: true, error: why }) };
  });

  if (start.kind === "done") return start.result;
  const { delivery, webhook, attemptRow } = start;

  const result = await sendSigned({
    url: webhook.url,
    secret: openWebhookSecret(webhook),
    body: delivery.payload,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    deliveryId,
    attempt: attemptRow.attempt,
  });

  return db.transaction((tx) => recordAttemptResult({ ...ctx, db: tx }, { delivery, webhookId: webhook.id, attemptRow, result, mode }));
}

/**
 * Writes what one sent attempt got back, in the caller's transaction: the attempt row, the
 * delivery's state and next attempt (the retry schedule), the webhook's failure count and
 * status (disabled after 10 failed deliveries or at once on 410), and `webhook.failed` after
 * the last attempt. An attempt another process took over meanwhile is left to it.
 */
export async function recordAttemptResult(
  ctx: SystemContext,
  {
    delivery,
    webhookId,
    attemptRow,
    result,
    mode,
  }: {
    delivery: Pick<WebhookDelivery, "id" | "accountId" | "eventId" | "eventType">;
    webhookId: string;
    attemptRow: Pick<WebhookAttempt, "id" | "attempt">;
    result: SendResult;
    mode: Mode;
  },
): Promise<AttemptOutcome> {
  const tx = ctx.db;
  const env = getEnv();
  const deliveryId = delivery.id;
  const webhook = { id: webhookId };
  {
    const number = attemptRow.attempt;
    const finishedAt = new Date();
    const [saved] = await tx
      .update(webhookAttempts)
      .set({
        status: result.ok ? "succeeded" : "failed",
        responseStatus: result.status,
        responseBody: result.body,
        durationMs: result.durationMs,
        error: result.error,
      })
      .where(and(eq(webhookAttempts.id, attemptRow.id), eq(webhookAttempts.status, "pending")))
      .returning();
    const [current] = await tx
      .select({ delivery: webhookDeliveries, webhook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhookDeliveries.id, deliveryId))
      .for("update");
    if (!saved || !current) {
      // The webhook was deleted meanwhile, or another process took this attempt over and owns it.
      return outcome(deliveryId, number, { status: result.ok ? "succeeded" : "failed", done: true, error: result.error, responseStatus: result.status });
    }
    const base = { attemptId: saved.id, responseStatus: result.status, error: result.error };

    if (result.ok) {
      await tx
        .update(webhookDeliveries)
        .set({
          status: "succeeded",
          attempts: sql`greatest(${webhookDeliveries.attempts}, ${number})`,
          nextAttemptAt: null,
          lastError: null,
          completedAt: finishedAt,
          updatedAt: finishedAt,
        })
        .where(eq(webhookDeliveries.id, deliveryId));
      if (current.webhook.consecutiveFailures !== 0) {
        await tx.update(webhooks).set({ consecutiveFailures: 0, updatedAt: finishedAt }).where(eq(webhooks.id, webhook.id));
      }
      return outcome(deliveryId, number, { status: "succeeded", done: true, ...base });
    }

    const lastError = result.error ?? (result.status ? `unexpected status ${result.status}` : "failed");
    const gone = result.status === 410;
    if (gone && current.webhook.status !== "disabled") {
      await tx
        .update(webhooks)
        .set({ status: "disabled", statusReason: `The endpoint answered 410 Gone (delivery ${deliveryId}); deliveries stopped.`, updatedAt: finishedAt })
        .where(eq(webhooks.id, webhook.id));
    }

    if (mode === "redelivery" || current.delivery.status !== "pending") {
      // A manual extra attempt leaves the delivery's own outcome as it was.
      await tx
        .update(webhookDeliveries)
        .set({ attempts: sql`greatest(${webhookDeliveries.attempts}, ${number})`, lastError, updatedAt: finishedAt })
        .where(eq(webhookDeliveries.id, deliveryId));
      return outcome(deliveryId, number, { status: "failed", done: true, ...base });
    }

    if (!gone && current.webhook.status === "active" && number < MAX_DELIVERY_ATTEMPTS) {
      const delaySeconds = env.WEBHOOK_RETRY_SCHEDULE[number - 1];
      const next = new Date(finishedAt.getTime() + delaySeconds * 1000);
      await tx.update(webhookAttempts).set({ nextAttemptAt: next }).where(eq(webhookAttempts.id, saved.id));
      await tx
        .update(webhookDeliveries)
        .set({ attempts: number, nextAttemptAt: next, lastError, updatedAt: finishedAt })
        .where(eq(webhookDeliveries.id, deliveryId));
      return outcome(deliveryId, number, { status: "failed", done: false, nextAttemptAt: next.toISOString(), ...base });
    }

    const stopped = !gone && current.webhook.status !== "active";
    await tx
      .update(webhookDeliveries)
      .set({
        status: "failed",
        attempts: number,
        nextAttemptAt: null,
        lastError: stopped ? `stopped: the webhook is ${current.webhook.status}; last error: ${lastError}` : lastError,
        completedAt: finishedAt,
        updatedAt: finishedAt,
      })
      .where(eq(webhookDeliveries.id, deliveryId));
    if (stopped) return outcome(deliveryId, number, { status: "failed", done: true, ...base });

    const failures = current.webhook.consecutiveFailures + 1;
    const disable = !gone && failures >= 10;
    await tx
      .update(webhooks)
      .set({
        consecutiveFailures: failures,
        ...(disable
          ? { status: "disabled" as const, statusReason: `${failures} consecutive deliveries failed; the last error was: ${lastError}` }
          : {}),
        updatedAt: finishedAt,
      })
      .where(eq(webhooks.id, webhook.id));
    // A failed webhook.failed delivery is not reported again: two broken receivers would
    // otherwise notify each other forever.
    if (!gone && delivery.eventType !== "webhook.failed") {
      await recordEvent(ctx, {
        accountId: delivery.accountId,
        type: "webhook.failed",
        data: { webhook_id: webhook.id, event_id: delivery.eventId, delivery_id: deliveryId, attempts: number, last_error: lastError },
        excludeWebhookId: webhook.id,
      });
    }
    return outcome(deliveryId, number, { status: "failed", done: true, ...base });
  }
}
