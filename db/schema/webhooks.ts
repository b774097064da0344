import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ownedBy, ts, updatedAt } from "./columns";

export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    accountId: ownedBy("account_id", () => accounts.id),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    secret: text("secret").notNull(),
    status: text("status", {
      enum: ["pending", "active", "verification_failed", "disabled"],
    }).notNull(),
    statusReason: text("status_reason"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhooks_account_created_idx").on(t.accountId, t.createdAt, t.id)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    // The webhook's account, copied for filtering. No foreign key of its own: the row goes with
    // its webhook (which goes with its account), and a key on the account would check and lock
    // the account's row on every delivery written.
    accountId: text("account_id").notNull(),
    webhookId: ownedBy("webhook_id", () => webhooks.id),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    // The exact body sent on every attempt, frozen when the event is recorded.
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    // The delivery row is the local runner's job: due while pending with next_attempt_at
    // reached and no live claim. A claim is a lease (locked_until) counted by `claims`; a
    // lease that ran out while running means its process died.
    nextAttemptAt: ts("next_attempt_at"),
    lockedUntil: ts("locked_until"),
    claims: integer("claims").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    // Also the index that deleting a webhook cascades through (its deliveries by webhook_id).
    uniqueIndex("webhook_deliveries_webhook_event_idx").on(t.webhookId, t.eventId),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    // The delivery's account and webhook, copied for filtering (the log, stats). Only the
    // delivery is a foreign key: an attempt goes with its delivery (which goes with its webhook
    // and account), and keys on the others would check and lock those rows on every attempt.
    accountId: text("account_id").notNull(),
    webhookId: text("webhook_id").notNull(),
    deliveryId: ownedBy("delivery_id", () => webhookDeliveries.id),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    attemptedAt: ts("attempted_at")
      .notNull()
      .$defaultFn(() => new Date()),
    nextAttemptAt: ts("next_attempt_at"),
  },
  (t) => [
    uniqueIndex("webhook_attempts_delivery_attempt_idx").on(t.deliveryId, t.attempt),
    index("webhook_attempts_webhook_attempted_idx").on(t.webhookId, t.attemptedAt, t.id),
    index("webhook_attempts_webhook_status_idx").on(t.webhookId, t.status, t.attemptedAt, t.id),
  ],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;
