import type { Executor } from "@/db";
import type { WebhookAttempt, WebhookDelivery } from "@/db/schema";
import type { SystemContext } from "@/lib/auth/context";
import { recordEvent } from "@/lib/events/record-event";
import { getEnv } from "@/lib/platform/env";
import { MAX_DELIVERY_ATTEMPTS } from "./schemas";
import type { SendResult } from "./send";
import { attemptsAtLeast, type CommonOutcomeRow, lockDeliveryWithWebhook, recordCommonOutcomes, updateAttempt, updateDelivery, updateWebhookRow } from "./store";

/** What one attempt of a delivery did; JSON-safe, because Inngest stores it as step output. */
export type AttemptOutcome = {
  deliveryId: string;
  attempt: number;
  /**
   * succeeded / failed: the attempt ran (now, or earlier when `replayed`); skipped: nothing
   * to send (delivery finished or gone, webhook not active, or, with `done` false, not due
   * before `nextAttemptAt`); in_flight: another process is sending this very attempt.
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

/** An attempt's outcome, and whether the lease of the delivery-row claim that ran it was ended with it. */
export type Attempted = { outcome: AttemptOutcome; leaseEnded: boolean };

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

export const outcome = (deliveryId: string, attempt: number, fields: Partial<AttemptOutcome> & Pick<AttemptOutcome, "status" | "done">): AttemptOutcome => ({
  deliveryId,
  attempt,
  nextAttemptAt: null,
  replayed: false,
  attemptId: null,
  responseStatus: null,
  error: null,
  ...fields,
});

export type Settle = { resolve: (attempted: Attempted) => void; reject: (error: unknown) => void };

/** An attempt that was sent, with what came back, waiting for its outcome to be written. */
export type Sent = {
  delivery: Pick<WebhookDelivery, "id" | "accountId" | "eventId" | "eventType">;
  webhookId: string;
  attemptRow: Pick<WebhookAttempt, "id" | "attempt">;
  result: SendResult;
  mode: Mode;
  settle: Settle;
  /** The context its outcome is recorded with. */
  system: SystemContext;
  /** The claim count of the delivery row this attempt runs under (its lease ends with the outcome), or null. */
  claims: number | null;
};

// Answers that arrive while a write is under way are written together by the next one.
let queued: Sent[] = [];
let writing = false;

/**
 * The embedded database runs a statement without yielding to I/O, so a write started at once
 * would take the first answer alone and hold back the others until it commits. Each write
 * waits for the answers already received (setImmediate runs after pending I/O callbacks).
 */
const afterPendingIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes a sent attempt's outcome, together with the others that arrive meanwhile, and settles it. */
export function queueResult(sent: Sent) {
  queued.push(sent);
  if (!writing) void writeResults();
}

async function writeResults() {
  writing = true;
  try {
    while ((await afterPendingIo(), queued.length)) {
      // Outcomes are written together only through the same database handle.
      const byDb = new Map<Executor, Sent[]>();
      for (const sent of queued) byDb.set(sent.system.db, [...(byDb.get(sent.system.db) ?? []), sent]);
      queued = [];
      for (const batch of byDb.values()) await writeBatch(batch);
    }
  } finally {
    writing = false;
  }
}

async function writeBatch(batch: Sent[]) {
  try {
    const outcomes = await recordResults(batch);
    batch.forEach((sent, i) => sent.settle.resolve(outcomes[i]));
  } catch (error) {
    // One at a time then, so that one bad row cannot hold up the others.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message.split("\n")[0] : String(error);
    console.error(`webhook deliveries: writing ${batch.length} outcomes together failed (${cause}); writing them one by one`);
    for (const sent of batch) {
      try {
        sent.settle.resolve({ outcome: await recordOne(sent), leaseEnded: false });
      } catch (failure) {
        sent.settle.reject(failure);
      }
    }
  }
}

const recordOne = (sent: Sent) => sent.system.db.transaction((tx) => recordAttemptResult({ ...sent.system, db: tx }, sent));

/**
 * The common outcomes (a 2xx; a failure with retries left) of many scheduled attempts in one
 * statement, which also checks that each delivery is still pending and its endpoint still
 * active; anything else (a manual extra attempt, the last attempt, 410 Gone, an endpoint
 * disabled or a delivery finished meanwhile) through recordAttemptResult, each in its own
 * transaction.
 */
async function recordResults(batch: Sent[]): Promise<Attempted[]> {
  const env = getEnv();
  const finishedAt = new Date();
  const outcomes: Attempted[] = new Array(batch.length);
  const rows: CommonOutcomeRow[] = [];
  const common: number[] = [];
  const rare: number[] = [];
  batch.forEach((sent, i) => {
    const { result, attemptRow, delivery } = sent;
    const fields = {
      attempt_id: attemptRow.id,
      delivery_id: delivery.id,
      account_id: delivery.accountId,
      n: attemptRow.attempt,
      response_status: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      claims: sent.claims,
    };
    const base = { attemptId: attemptRow.id, responseStatus: result.status, error: result.error };
    const leaseEnded = sent.claims !== null;
    if (sent.mode !== "scheduled") {
      rare.push(i);
    } else if (result.ok) {
      rows.push({ ...fields, ok: true, next: null, last_error: null });
      outcomes[i] = { outcome: outcome(delivery.id, attemptRow.attempt, { status: "succeeded", done: true, ...base }), leaseEnded };
      common.push(i);
    } else if (result.status !== 410 && attemptRow.attempt < MAX_DELIVERY_ATTEMPTS) {
      const next = new Date(finishedAt.getTime() + env.WEBHOOK_RETRY_SCHEDULE[attemptRow.attempt - 1] * 1000).toISOString();
      const lastError = result.error ?? (result.status ? `unexpected status ${result.status}` : "failed");
      rows.push({ ...fields, ok: false, next, last_error: lastError });
      outcomes[i] = { outcome: outcome(delivery.id, attemptRow.attempt, { status: "failed", done: false, nextAttemptAt: next, ...base }), leaseEnded };
      common.push(i);
    } else {
      rare.push(i);
    }
  });

  if (rows.length) {
    const checked = await recordCommonOutcomes(batch[0].system.db, rows, finishedAt);
    for (const i of common) {
      const { delivery, attemptRow } = batch[i];
      const written = checked.get(delivery.id);
      // Taken over meanwhile (its attempt row is no longer pending): whoever took it over owns the
      // attempt; the delivery comes due again once an attempt in flight would be presumed dead, in
      // case that one dies too (then it finds the outcome recorded, or sends again).
      if (written === false) {
        const nextAttemptAt = new Date(Date.now() + env.WEBHOOK_TIMEOUT_MS + IN_FLIGHT_GRACE_MS).toISOString();
        outcomes[i] = { outcome: outcome(delivery.id, attemptRow.attempt, { status: "in_flight", done: false, nextAttemptAt }), leaseEnded: false };
      }
      // No longer pending, endpoint no longer active, or deleted: written the rare way.
      else if (written === undefined) rare.push(i);
    }
  }
  for (const i of rare) outcomes[i] = { outcome: await recordOne(batch[i]), leaseEnded: false };
  return outcomes;
}

/**
 * Writes what one sent attempt got back, in the caller's transaction: the attempt row, the
 * delivery's state and next attempt (the retry schedule), the webhook's failure count and
 * status (disabled after 10 failed deliveries or at once on 410), and `webhook.failed` after
 * the last attempt. An attempt another process took over meanwhile is left to it.
 */
async function recordAttemptResult(ctx: SystemContext, { delivery, webhookId, attemptRow, result, mode }: Sent): Promise<AttemptOutcome> {
  const tx = ctx.db;
  const env = getEnv();
  const deliveryId = delivery.id;
  const accountId = delivery.accountId;
  const number = attemptRow.attempt;
  const finishedAt = new Date();
  const saved = await updateAttempt(
    tx,
    { accountId, id: attemptRow.id, pendingOnly: true },
    { status: result.ok ? "succeeded" : "failed", responseStatus: result.status, responseBody: result.body, durationMs: result.durationMs, error: result.error },
  );
  const current = await lockDeliveryWithWebhook(tx, deliveryId);
  if (!saved || !current) {
    // The webhook was deleted meanwhile, or another process took this attempt over and owns it.
    return outcome(deliveryId, number, { status: result.ok ? "succeeded" : "failed", done: true, error: result.error, responseStatus: result.status });
  }
  const base = { attemptId: saved.id, responseStatus: result.status, error: result.error };
  const thisDelivery = { accountId, id: deliveryId };
  const thisWebhook = { accountId, id: webhookId };

  if (result.ok) {
    await updateDelivery(tx, thisDelivery, {
      status: "succeeded",
      attempts: attemptsAtLeast(number),
      nextAttemptAt: null,
      lastError: null,
      completedAt: finishedAt,
      updatedAt: finishedAt,
    });
    if (current.webhook.consecutiveFailures !== 0) await updateWebhookRow(tx, thisWebhook, { consecutiveFailures: 0, updatedAt: finishedAt });
    return outcome(deliveryId, number, { status: "succeeded", done: true, ...base });
  }

  const lastError = result.error ?? (result.status ? `unexpected status ${result.status}` : "failed");
  const gone = result.status === 410;
  if (gone && current.webhook.status !== "disabled") {
    await updateWebhookRow(tx, thisWebhook, {
      status: "disabled",
      statusReason: `The endpoint answered 410 Gone (delivery ${deliveryId}); deliveries stopped.`,
      updatedAt: finishedAt,
    });
  }

  if (mode === "redelivery" || current.delivery.status !== "pending") {
    // A manual extra attempt leaves the delivery's own outcome as it was.
    await updateDelivery(tx, thisDelivery, { attempts: attemptsAtLeast(number), lastError, updatedAt: finishedAt });
    return outcome(deliveryId, number, { status: "failed", done: true, ...base });
  }

  if (!gone && current.webhook.status === "active" && number < MAX_DELIVERY_ATTEMPTS) {
    const next = new Date(finishedAt.getTime() + env.WEBHOOK_RETRY_SCHEDULE[number - 1] * 1000);
    await updateAttempt(tx, { accountId, id: saved.id }, { nextAttemptAt: next });
    await updateDelivery(tx, thisDelivery, { attempts: number, nextAttemptAt: next, lastError, updatedAt: finishedAt });
    return outcome(deliveryId, number, { status: "failed", done: false, nextAttemptAt: next.toISOString(), ...base });
  }

  const stopped = !gone && current.webhook.status !== "active";
  await updateDelivery(tx, thisDelivery, {
    status: "failed",
    attempts: number,
    nextAttemptAt: null,
    lastError: stopped ? `stopped: the webhook is ${current.webhook.status}; last error: ${lastError}` : lastError,
    completedAt: finishedAt,
    updatedAt: finishedAt,
  });
  if (stopped) return outcome(deliveryId, number, { status: "failed", done: true, ...base });

  const failures = current.webhook.consecutiveFailures + 1;
  const disable = !gone && failures >= 10;
  await updateWebhookRow(tx, thisWebhook, {
    consecutiveFailures: failures,
    ...(disable ? { status: "disabled" as const, statusReason: `${failures} consecutive deliveries failed; the last error was: ${lastError}` } : {}),
    updatedAt: finishedAt,
  });
  // A failed webhook.failed delivery is not reported again: two broken receivers would
  // otherwise notify each other forever.
  if (!gone && delivery.eventType !== "webhook.failed") {
    await recordEvent(ctx, {
      accountId,
      type: "webhook.failed",
      data: { webhook_id: webhookId, event_id: delivery.eventId, delivery_id: deliveryId, attempts: number, last_error: lastError },
      excludeWebhookId: webhookId,
    });
  }
  return outcome(deliveryId, number, { status: "failed", done: true, ...base });
}
