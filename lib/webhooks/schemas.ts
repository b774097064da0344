import { z } from "zod";
import type { Webhook, WebhookAttempt } from "@/db/schema";
import { paginationQuery } from "@/lib/api/pagination";
import { subscribableEventTypes } from "@/lib/events/types";

export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
/** Automatic attempts per delivery: the first one and four retries. */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** SPEC: the receiver must answer the challenge within 10 s. */
export const VERIFICATION_TIMEOUT_MS = 10_000;

export const webhookStatuses = ["pending", "active", "verification_failed", "disabled"] as const;
export const attemptStatuses = ["succeeded", "failed", "pending"] as const;
export const statsWindows = { "24h": 24 * 3600_000, "7d": 7 * 24 * 3600_000, "30d": 30 * 24 * 3600_000 } as const;
export type StatsWindow = keyof typeof statsWindows;

/** Event types grouped by resource, for the settings form. */
export const eventTypeGroups = subscribableEventTypes.reduce<Record<string, string[]>>((groups, type) => {
  (groups[type.split(".")[0]] ??= []).push(type);
  return groups;
}, {});

const known = new Set<string>(subscribableEventTypes);

export const webhookUrlSchema = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .min(1, "is required")
  .max(2048, "must be at most 2048 characters");

export const webhookEventsSchema = z
  .array(z.string({ error: "must be an event type" }), {
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
  .transform((list) => [...new Set(list)]);

export const webhookSecretSchema = z
  .string({ error: "must be a string" })
  .min(16, "must be 16 to 128 characters")
  .max(128, "must be 16 to 128 characters")
  .regex(/^[^\u0000-\u001f\u007f]+$/, "must not contain control characters");

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
    status: z.enum(["active", "disabled"], { error: 'must be "active" or "disabled"' }).optional(),
  })
  .refine((v) => v.url !== undefined || v.events !== undefined || v.status !== undefined, {
    message: "send at least one of url, events, status",
  });
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export const webhookLogsQuery = paginationQuery.extend({
  status: z.enum(attemptStatuses, { error: "must be succeeded, failed or pending" }).optional(),
});

export const webhookStatsQuery = z.object({
  window: z.enum(["24h", "7d", "30d"], { error: "must be 24h, 7d or 30d" }).default("24h"),
});

export const webhookOutput = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  status: z.enum(webhookStatuses),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookOutput = z.infer<typeof webhookOutput>;

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

export const attemptOutput = z.object({
  id: z.string(),
  delivery_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  status: z.enum(attemptStatuses),
  response_status: z.number().int().nullable(),
  response_body: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  attempted_at: z.string(),
  next_attempt_at: z.string().nullable(),
});
export type AttemptOutput = z.infer<typeof attemptOutput>;

export function presentAttempt(row: WebhookAttempt): AttemptOutput {
  return {
    id: row.id,
    delivery_id: row.deliveryId,
    event_id: row.eventId,
    event_type: row.eventType,
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

export type WebhookStats = {
  window: StatsWindow;
  total: number;
  succeeded: number;
  failed: number;
  pending: number;
  success_rate: number | null;
  avg_duration_ms: number | null;
  p95_duration_ms: number | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
};
