import { toDate } from "@/db";
import type { Webhook, WebhookAttempt, WebhookDelivery } from "@/db/schema";
import type { SystemContext } from "@/lib/auth/context";
import { getEnv } from "@/lib/platform/env";
import { newId } from "@/lib/platform/ids";
import { type Attempted, type AttemptOutcome, IN_FLIGHT_GRACE_MS, type Mode, outcome, queueResult, type Settle } from "./record-attempt";
import { MAX_DELIVERY_ATTEMPTS } from "./schemas";
import { openWebhookSecret } from "./secret-at-rest";
import { sendSigned } from "./send";
import { deleteAttempt, findAttempt, highestAttempt, insertPendingAttempt, lockDeliveryWithWebhook, startPlannedAttempts, updateAttempt, updateDelivery } from "./store";

/** One attempt asked for. */
export type AttemptRequest = {
  deliveryId: string;
  /**
   * due: the delivery's next attempt, if its time has come at `now` (the local runner);
   * a number: that attempt of the automatic ladder (the Inngest function's step N, or a
   * "retry now" of a delivery still in its ladder); next: one more, manual attempt after the
   * last, of a delivery that has finished.
   */
  attempt: "due" | number | "next";
  now?: Date;
  /**
   * The job that ran this attempt before lost its claim while running (its process died): an
   * unfinished attempt row is abandoned however recent it is, and is sent again at once.
   */
  abandoned?: boolean;
  /** The claim count of the delivery row the attempt runs under (its lease ends with the outcome), or null. */
  claims?: number | null;
};

type Ready = {
  delivery: Pick<WebhookDelivery, "id" | "accountId" | "eventId" | "eventType" | "payload">;
  webhook: Pick<Webhook, "id" | "accountId" | "url" | "secret">;
  attemptRow: Pick<WebhookAttempt, "id" | "attempt">;
  mode: Mode;
};

/**
 * The one way a webhook delivery is attempted, for one delivery or many at a time (a retry, a
 * manual redelivery and an Inngest step are batches of one). Attempt N is written before it is
 * sent, and sent once unless its process dies: one statement reads every delivery with its
 * endpoint and writes the attempt row of each one that can go now; the others (an attempt row
 * that exists already, a takeover, a manual extra attempt, an endpoint no longer active, the
 * end of the ladder) are looked at one at a time, which resumes, replays or stops them. The
 * sends run in parallel over kept-alive connections, and answers that arrive together are
 * written together (./record-attempt.ts). Idempotent per (delivery, attempt): a repeated call
 * for an attempt that has completed returns the recorded outcome without sending again.
 */
export function attemptDeliveries(system: SystemContext, requests: AttemptRequest[]): Promise<Attempted>[] {
  const settles: Settle[] = [];
  const promises = requests.map((_request, i) => new Promise<Attempted>((resolve, reject) => (settles[i] = { resolve, reject })));
  void start(system, requests, settles).catch((error) => {
    for (const settle of settles) settle.reject(error);
  });
  return promises;
}

/** One attempt of one delivery: a batch of one. */
export async function attemptDelivery(system: SystemContext, request: AttemptRequest): Promise<AttemptOutcome> {
  return (await attemptDeliveries(system, [request])[0]).outcome;
}

async function start(system: SystemContext, requests: AttemptRequest[], settles: Settle[]) {
  const secrets = new Map<string, string | null>();
  const send = (index: number, ready: Ready) => {
    const { delivery, webhook, attemptRow, mode } = ready;
    if (!secrets.has(webhook.id)) secrets.set(webhook.id, openWebhookSecret(webhook));
    void sendSigned({
      url: webhook.url,
      secret: secrets.get(webhook.id) ?? null,
      body: delivery.payload,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      deliveryId: delivery.id,
      attempt: attemptRow.attempt,
    }).then((result) =>
      queueResult({ delivery, webhookId: webhook.id, attemptRow, result, mode, settle: settles[index], system, claims: requests[index].claims ?? null }),
    );
  };
  const alone = (index: number) => {
    startOne(system, requests[index]).then((started) => {
      if ("outcome" in started) settles[index].resolve({ outcome: started.outcome, leaseEnded: false });
      else send(index, started);
    }, settles[index].reject);
  };

  const together = new Map<string, number>();
  requests.forEach((request, index) => {
    // A manual extra attempt, one taken over from a dead process, or a delivery twice in one batch: on its own.
    if (request.attempt === "next" || request.abandoned || together.has(request.deliveryId)) alone(index);
    else together.set(request.deliveryId, index);
  });
  if (!together.size) return;

  const attemptedAt = new Date();
  const found = await startPlannedAttempts(
    system.db,
    [...together].map(([deliveryId, index]) => {
      const { attempt, now = attemptedAt } = requests[index];
      return { delivery_id: deliveryId, attempt_id: newId("attempt", attemptedAt), n: typeof attempt === "number" ? attempt : null, now: now.toISOString() };
    }),
    attemptedAt,
  );
  for (const [deliveryId, index] of together) {
    const { attempt, now = attemptedAt } = requests[index];
    const row = found.get(deliveryId);
    const done = (result: AttemptOutcome) => settles[index].resolve({ outcome: result, leaseEnded: false });
    if (!row) {
      done(outcome(deliveryId, typeof attempt === "number" ? attempt : 0, { status: "skipped", done: true, error: "the delivery no longer exists" }));
      continue;
    }
    if (row.attempt_id == null) {
      const nextAttemptAt = row.next_attempt_at == null ? null : toDate(row.next_attempt_at);
      const number = Number(row.attempts) + 1;
      if (attempt !== "due") alone(index);
      else if (row.status !== "pending") done(outcome(deliveryId, number, { status: "skipped", done: true, error: `the delivery has ${row.status}` }));
      // A manual "retry now" may have run this attempt already and moved the next one later.
      else if (nextAttemptAt && nextAttemptAt > now) done(outcome(deliveryId, number, { status: "skipped", done: false, nextAttemptAt: nextAttemptAt.toISOString() }));
      else alone(index);
      continue;
    }
    send(index, {
      delivery: { id: row.id, accountId: row.account_id, eventId: row.event_id, eventType: row.event_type, payload: row.payload },
      webhook: { id: row.webhook_id, accountId: row.account_id, url: row.url, secret: row.secret },
      attemptRow: { id: row.attempt_id, attempt: Number(row.attempt_number) },
      mode: "scheduled",
    });
  }
}

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
 * One delivery's attempt, looked at on its own under the delivery's row lock (which serialises
 * concurrent calls for the same delivery): the attempt row is written and the attempt is ready
 * to send, or the outcome is known without sending (recorded already, in flight elsewhere,
 * not due, or not to be sent).
 */
async function startOne(system: SystemContext, { deliveryId, attempt, now = new Date(), abandoned = false }: AttemptRequest): Promise<Ready | { outcome: AttemptOutcome }> {
  const env = getEnv();
  const staleBefore = abandoned ? Number.POSITIVE_INFINITY : now.getTime() - env.WEBHOOK_TIMEOUT_MS - IN_FLIGHT_GRACE_MS;
  const mode: Mode = attempt === "next" ? "redelivery" : "scheduled";
  return system.db.transaction(async (tx) => {
    const row = await lockDeliveryWithWebhook(tx, deliveryId);
    if (!row) return { outcome: outcome(deliveryId, typeof attempt === "number" ? attempt : 0, { status: "skipped", done: true, error: "the delivery no longer exists" }) };
    const { delivery, webhook } = row;
    const { accountId } = delivery;

    if (attempt === "due") {
      const number = delivery.attempts + 1;
      if (delivery.status !== "pending") return { outcome: outcome(deliveryId, number, { status: "skipped", done: true, error: `the delivery has ${delivery.status}` }) };
      // A manual "retry now" may have run this attempt already and moved the next one later.
      if (delivery.nextAttemptAt && delivery.nextAttemptAt > now) {
        return { outcome: outcome(deliveryId, number, { status: "skipped", done: false, nextAttemptAt: delivery.nextAttemptAt.toISOString() }) };
      }
    }
    const number = attempt === "next" ? (await highestAttempt(tx, { accountId, deliveryId })) + 1 : attempt === "due" ? delivery.attempts + 1 : attempt;

    const sendable = webhook.status === "active" && (mode === "redelivery" || (delivery.status === "pending" && number <= MAX_DELIVERY_ATTEMPTS));
    const insertAttempt = async () => {
      const attemptedAt = new Date();
      const attemptRow = await insertPendingAttempt(tx, {
        id: newId("attempt", attemptedAt),
        accountId,
        webhookId: webhook.id,
        deliveryId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        attempt: number,
        attemptedAt,
      });
      return attemptRow && { delivery, webhook, attemptRow, mode };
    };

    // The common case: this attempt has not been made yet.
    if (sendable) {
      const ready = await insertAttempt();
      if (ready) return ready;
    }

    const existing = await findAttempt(tx, { accountId, deliveryId, attempt: number });
    if (existing) {
      if (existing.status !== "pending") return { outcome: recorded(existing, delivery) };
      if (existing.attemptedAt.getTime() > staleBefore) {
        const nextAttemptAt = new Date(existing.attemptedAt.getTime() + env.WEBHOOK_TIMEOUT_MS + IN_FLIGHT_GRACE_MS).toISOString();
        return { outcome: outcome(deliveryId, number, { status: "in_flight", done: false, attemptId: existing.id, nextAttemptAt }) };
      }
      // Its process died before recording an answer; the receiver may or may not have seen it.
      if (sendable) {
        // Sent again, as a new row so that the log's order key (when the attempt started) stays immutable.
        await deleteAttempt(tx, { accountId, id: existing.id });
        const ready = await insertAttempt();
        if (ready) return ready;
      } else {
        await updateAttempt(tx, { accountId, id: existing.id }, { status: "failed", error: "interrupted: the process stopped during the attempt" });
      }
    }

    if (webhook.status !== "active") {
      if (mode === "scheduled" && delivery.status === "pending") {
        // Deliveries of a disabled (or unverified) webhook stop where they are.
        await updateDelivery(
          tx,
          { accountId, id: deliveryId },
          { status: "failed", lastError: `stopped: the webhook is ${webhook.status}`, nextAttemptAt: null, completedAt: new Date(), updatedAt: new Date() },
        );
      }
      return { outcome: outcome(deliveryId, number, { status: "skipped", done: true, error: `the webhook is ${webhook.status}` }) };
    }
    const why = delivery.status !== "pending" ? `the delivery has ${delivery.status}` : `attempt ${number} is past the last automatic attempt`;
    return { outcome: outcome(deliveryId, number, { status: "skipped", done: true, error: why }) };
  });
}
