import { z } from "zod";
import { eventTypes, subscribableEventTypes } from "@/lib/events/types";
import { idOf, operationsFor, page, paginationQuery, pathIds, timestamp, type V1Domain } from "../v1-common";

// Written from SPEC section 5. When lib/webhooks/schemas.ts exists, its public schemas
// replace these so the document and the handlers share one definition.

const tag = { name: "Webhooks", description: "Signed, retried deliveries of events to your HTTPS endpoints." };
const op = operationsFor(tag.name);

export const eventTypeSchema = z.enum(eventTypes).meta({ id: "EventType" });
const subscribable = z.enum(["*", ...subscribableEventTypes]);

const webhookStatus = z.enum(["pending", "active", "verification_failed", "disabled"]);

export const webhookSchema = z
  .object({
    id: idOf("webhook"),
    url: z.string().meta({ format: "uri", example: "https://hooks.example.com/chorus" }),
    events: z.array(subscribable),
    status: webhookStatus,
    status_reason: z.string().nullable().optional(),
    created_at: timestamp(),
    updated_at: timestamp().optional(),
  })
  .meta({ id: "Webhook", description: "Only `active` webhooks receive events." });

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().meta({ description: "Signs every delivery. Shown only in this answer.", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }) })
  .meta({ id: "CreatedWebhook" });

export const createWebhookInput = z.object({
  url: z.string().meta({ format: "uri", description: "`https` only, with a host that resolves to public addresses.", example: "https://hooks.example.com/chorus" }),
  events: z.array(subscribable).min(1).meta({ description: 'Event types, or `["*"]` for all.', example: ["message.received", "conversation.created"] }),
  secret: z.string().min(16).max(128).optional().meta({ description: "Generated as `whsec_...` when absent." }),
});

export const updateWebhookInput = z.object({
  url: createWebhookInput.shape.url.optional(),
  events: createWebhookInput.shape.events.optional(),
  status: z.enum(["active", "disabled"]).optional(),
});

const attemptStatus = z.enum(["succeeded", "failed", "pending"]);

export const deliveryAttemptSchema = z
  .object({
    id: z.string(),
    delivery_id: idOf("delivery"),
    event_id: idOf("event"),
    event_type: eventTypeSchema,
    attempt: z.int().min(1).max(5),
    status: attemptStatus,
    response_status: z.int().nullable(),
    response_body: z.string().nullable().meta({ description: "The first 2 KiB of the answer." }),
    duration_ms: z.int().nullable(),
    error: z.string().nullable(),
    attempted_at: timestamp(),
    next_attempt_at: timestamp().nullable(),
  })
  .meta({ id: "DeliveryAttempt" });

export const webhookStatsSchema = z
  .object({
    window: z.enum(["24h", "7d", "30d"]),
    total: z.int().min(0),
    succeeded: z.int().min(0),
    failed: z.int().min(0),
    pending: z.int().min(0),
    success_rate: z.number().nullable().meta({ description: "Succeeded over finished attempts, 0 to 1; null without any." }),
    avg_duration_ms: z.number().nullable(),
    p95_duration_ms: z.number().nullable(),
    last_success_at: timestamp().nullable(),
    last_failure_at: timestamp().nullable(),
    consecutive_failures: z.int().min(0),
  })
  .meta({ id: "WebhookStats" });

export const retryOutput = z
  .looseObject({ delivery_id: idOf("delivery"), event_id: idOf("event"), status: attemptStatus })
  .meta({ id: "DeliveryRetry" });

const byId = pathIds({ id: "webhook" });

export const webhooksDomain: V1Domain = {
  tag,
  paths: {
    "/v1/webhooks": {
      post: op({
        operationId: "createWebhook",
        summary: "Register a webhook",
        description: "The server at once POSTs a signed `webhook.verified` event with a `challenge`; answering 200 with exactly the challenge within 10 s makes the webhook `active`, otherwise it is `verification_failed` (retry with `/verify`). At most 20 webhooks per account.",
        access: { scope: "webhooks:write" },
        body: createWebhookInput,
        idempotent: true,
        success: { status: "201", description: "The webhook, with its secret.", schema: createdWebhookSchema },
      }),
      get: op({
        operationId: "listWebhooks",
        summary: "List webhooks",
        access: { scope: "webhooks:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of webhooks.", schema: page(webhookSchema) },
      }),
    },
    "/v1/webhooks/{id}": {
      get: op({
        operationId: "getWebhook",
        summary: "Get a webhook",
        access: { scope: "webhooks:read" },
        path: byId,
        success: { status: "200", description: "The webhook.", schema: webhookSchema },
      }),
      patch: op({
        operationId: "updateWebhook",
        summary: "Update a webhook",
        access: { scope: "webhooks:write" },
        path: byId,
        body: updateWebhookInput,
        success: { status: "200", description: "The updated webhook.", schema: webhookSchema },
      }),
      delete: op({
        operationId: "deleteWebhook",
        summary: "Delete a webhook",
        access: { scope: "webhooks:delete" },
        path: byId,
        success: { status: "204", description: "Deleted." },
      }),
    },
    "/v1/webhooks/{id}/verify": {
      post: op({
        operationId: "verifyWebhook",
        summary: "Re-run the verification challenge",
        access: { scope: "webhooks:write" },
        path: byId,
        success: { status: "200", description: "The webhook with its new status.", schema: webhookSchema },
      }),
    },
    "/v1/webhooks/{id}/logs": {
      get: op({
        operationId: "listWebhookLogs",
        summary: "List delivery attempts",
        description: "Newest first.",
        access: { scope: "webhooks:read" },
        path: byId,
        query: paginationQuery.extend({ status: attemptStatus.optional() }),
        success: { status: "200", description: "A page of attempts.", schema: page(deliveryAttemptSchema) },
      }),
    },
    "/v1/webhooks/{id}/stats": {
      get: op({
        operationId: "getWebhookStats",
        summary: "Delivery statistics",
        access: { scope: "webhooks:read" },
        path: byId,
        query: z.object({ window: z.enum(["24h", "7d", "30d"]).optional() }),
        success: { status: "200", description: "Statistics of the window.", schema: webhookStatsSchema },
      }),
    },
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
      post: op({
        operationId: "retryWebhookDelivery",
        summary: "Redeliver now",
        description: "A new attempt of the same event, with the same event id.",
        access: { scope: "webhooks:write" },
        path: pathIds({ id: "webhook", delivery_id: "delivery" }),
        success: { status: "202", description: "The attempt is queued.", schema: retryOutput },
      }),
    },
  },
};
