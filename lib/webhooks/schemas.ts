import { z } from "zod";
import type { Webhook, WebhookAttempt } from "@/db/schema";
import { isoTimestamp, prefixedId } from "@/lib/platform/fields";
import { paginationQuery } from "@/lib/platform/pagination";
import { type EventType, eventTypes, subscribableEventTypes } from "@/lib/events/types";
import { MAX_WEBHOOKS_PER_ACCOUNT } from "@/lib/events/fan-out";

export { MAX_WEBHOOKS_PER_ACCOUNT };

/** Automatic attempts per delivery: the first one and four retries. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** The receiver must answer the challenge within 10 s. */
export const VERIFICATION_TIMEOUT_MS = 10_000;

const webhookStatuses = ["pending", "active", "verification_failed", "disabled"] as const;
const attemptStatuses = ["succeeded", "failed", "pending"] as const;
export const statsWindows = { "24h": 24 * 3600_000, "7d": 7 * 24 * 3600_000, "30d": 30 * 24 * 3600_000 } as const;
export type StatsWindow = keyof typeof statsWindows;

/** Event types grouped by resource, for the settings form. */
export const eventTypeGroups = subscribableEventTypes.reduce<Record<string, string[]>>((groups, type) => {
  (groups[type.split(".")[0]] ??= []).push(type);
  return groups;
}, {});

const known = new Set<string>(subscribableEventTypes);

const webhookUrlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .min(1, "is required")
  .max(2048, "must be at most 2048 characters")
  .meta({
    format: "uri",
    description: "`https` only, no user-info, and a host that resolves to public addresses only (checked again at every delivery; redirects are not followed).",
    example: "https://hooks.example.com/chorus",
  });

// The document lists the accepted values; the check itself names the wrong one in its message.
const subscribableType = z
  .string({ error: "must be an event type" })
  .meta({ description: 'An event type, or "*" (alone) for every event.', override: { enum: ["*", ...subscribableEventTypes] } });

const webhookEventsSchema = z
  .array(subscribableType, {
    error: (issue) => (issue.input === undefined ? "is required" : "must be a list of event types"),
  })
  .min(1, 'must list at least one event type, or ["*"] for all')
  .superRefine((list, ctx) => {
    list.forEach((type, index) => {
      if (type === "*") {
        if (list.length > 1) ctx.addIssue({ code: "custom", path: [index], message: '"*" subscribes to every event and must be alone' });
      } else if (type === "webhook.verified") {
        ctx.addIssue({ code: "custom", path: [index], message: "webhook.verified is sent only to the webhook being verified and cannot be subscribed to" });
      } else if (!known.has(type)) {
        ctx.addIssue({ code: "custom", path: [index], message: `unknown event type "${type}"` });
      }
    });
  })
  .transform((list) => [...new Set(list)])
  .meta({ description: 'The event types to receive, or `["*"]` for all. `webhook.verified` goes only to the webhook being verified.', example: ["message.received", "conversation.created"] });

// The Standard Webhooks format: `whsec_` and padded base64, which every Standard Webhooks
// library (`new Webhook(secret)`) decodes into the HMAC key; anything else it refuses or reads
// differently, so a receiver using one could never verify a delivery.
const standardSecret = /^whsec_(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$|^whsec_[A-Za-z0-9+/]{2}==$|^whsec_[A-Za-z0-9+/]{3}=$/;

export const webhookSecretSchema = z
  .string({ error: "must be a string" })
  .min(16, "must be 16 to 128 characters")
  .max(128, "must be 16 to 128 characters")
  .regex(
    standardSecret,
    'must be "whsec_" followed by base64, as Standard Webhooks libraries expect (e.g. "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"); leave it empty to get a generated one',
  )
  .meta({
    description:
      "Signs every delivery: `whsec_` followed by padded base64 (the Standard Webhooks format), 16 to 128 characters; generated when absent (recommended). `webhook-signature` is keyed by the base64-decoded part after `whsec_`, so `new Webhook(secret)` of any Standard Webhooks library verifies deliveries with the secret as shown; `X-Service-Signature` by the UTF-8 bytes of the whole string.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  });

export const createWebhookInput = z.object({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  secret: webhookSecretSchema.optional(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookInput>;

export const updateWebhookInput = z
  .object({
    url: webhookUrlSchema.optional(),
    events: webhookEventsSchema.optional(),
    status: z
      .enum(["active", "disabled"], { error: 'must be "active" or "disabled"' })
      .optional()
      .meta({ description: "`disabled` stops deliveries at once; `active` re-runs the verification challenge." }),
  })
  .refine((v) => v.url !== undefined || v.events !== undefined || v.status !== undefined, {
    message: "send at least one of url, events, status",
  });
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookLogsQuery = paginationQuery.extend({
  status: z.enum(attemptStatuses, { error: "must be succeeded, failed or pending" }).optional().meta({ description: "Only attempts with this outcome." }),
});

export const webhookStatsQuery = z.object({
  window: z.enum(["24h", "7d", "30d"], { error: "must be 24h, 7d or 30d" }).default("24h").meta({ description: "The period the counts cover." }),
});

const webhookShape = {
  id: prefixedId("webhook"),
  url: z.string().meta({ format: "uri", example: "https://hooks.example.com/chorus" }),
  events: z.array(z.string()).meta({ description: 'The subscribed event types, or `["*"]`.', example: ["message.received"] }),
  status: z.enum(webhookStatuses).meta({
    description: "`pending` (challenge running), `active` (receives events), `verification_failed` (retry with /verify) or `disabled` (by a user, a 410 answer or 10 failed deliveries in a row).",
  }),
  status_reason: z.string().nullable().meta({ description: "Why it is not active, when it is not." }),
  created_at: isoTimestamp(),
  updated_at: isoTimestamp(),
};

export const webhookOutput = z.object(webhookShape).meta({ id: "Webhook", description: "An endpoint that receives events. Only `active` webhooks receive them." });
export type WebhookOutput = z.infer<typeof webhookOutput>;

/** The answer of `POST /v1/webhooks`: the only one that contains the secret. */
export const createdWebhookOutput = z
  .object({
    ...webhookShape,
    secret: z.string().meta({ description: "Signs every delivery: `X-Service-Signature` with the UTF-8 bytes of this string as shown (prefix included) as the HMAC key, `webhook-signature` as Standard Webhooks does (the base64-decoded part after `whsec_`; give the string as shown to `new Webhook(secret)`). Shown only in this answer.", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
  })
  .meta({ id: "CreatedWebhook", description: "The registered webhook, with its secret." });
export type CreatedWebhookOutput = z.infer<typeof createdWebhookOutput>;

/** The public shape of a webhook; the secret never leaves through here. */
export function presentWebhook(webhook: Webhook): WebhookOutput {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    status: webhook.status,
    status_reason: webhook.statusReason,
    created_at: webhook.createdAt.toISOString(),
    updated_at: webhook.updatedAt.toISOString(),
  };
}

export const attemptOutput = z
  .object({
    id: prefixedId("attempt"),
    delivery_id: prefixedId("delivery"),
    event_id: prefixedId("event"),
    event_type: z.enum(eventTypes),
    attempt: z.int().min(1).meta({ description: "1 to 5 on the schedule; a manual redelivery of a finished delivery counts on." }),
    status: z.enum(attemptStatuses),
    response_status: z.int().nullable().meta({ description: "The HTTP status the endpoint answered; null without an answer." }),
    response_body: z.string().nullable().meta({ description: "The first 2 KiB of the answer." }),
    duration_ms: z.int().min(0).nullable(),
    error: z.string().nullable().meta({ description: "Why the attempt failed (timeout, refused address, connection error, status)." }),
    attempted_at: isoTimestamp(),
    next_attempt_at: isoTimestamp("When the next attempt is due, after a failure.").nullable(),
  })
  .meta({ id: "DeliveryAttempt", description: "One attempt to deliver an event to a webhook." });
export type AttemptOutput = z.infer<typeof attemptOutput>;

export function presentAttempt(row: WebhookAttempt): AttemptOutput {
  return {
    id: row.id,
    delivery_id: row.deliveryId,
    event_id: row.eventId,
    // Written only from recorded events, whose types are EventType.
    event_type: row.eventType as EventType,
    attempt: row.attempt,
    status: row.status,
    response_status: row.responseStatus,
    response_body: row.responseBody,
    duration_ms: row.durationMs,
    error: row.error,
    attempted_at: row.attemptedAt.toISOString(),
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
  };
}

export const webhookStatsOutput = z
  .object({
    window: z.enum(["24h", "7d", "30d"]),
    total: z.int().min(0).meta({ description: "Attempts started in the window." }),
    succeeded: z.int().min(0),
    failed: z.int().min(0),
    pending: z.int().min(0),
    success_rate: z.number().min(0).max(1).nullable().meta({ description: "Succeeded over finished attempts, 0 to 1; null when none finished." }),
    avg_duration_ms: z.number().min(0).nullable(),
    p95_duration_ms: z.number().min(0).nullable(),
    last_success_at: isoTimestamp("The webhook's last successful attempt, whatever the window.").nullable(),
    last_failure_at: isoTimestamp("The webhook's last failed attempt, whatever the window.").nullable(),
    consecutive_failures: z.int().min(0).meta({ description: "Failed deliveries in a row; 10 disable the webhook." }),
  })
  .meta({ id: "WebhookStats", description: "Delivery statistics of a webhook." });
export type WebhookStats = z.infer<typeof webhookStatsOutput>;
