import { z } from "zod";
import { eventTypes } from "@/lib/events/types";
import {
  attemptOutput,
  createdWebhookOutput,
  createWebhookInput,
  updateWebhookInput,
  webhookLogsQuery,
  webhookOutput,
  webhookStatsOutput,
  webhookStatsQuery,
} from "@/lib/webhooks/schemas";
import { deleted, operationsFor, page, paginationQuery, pathIds, type V1Domain } from "../v1-common";

const tag = { name: "Webhooks", description: "Signed, retried deliveries of events to your HTTPS endpoints." };
const op = operationsFor(tag.name);

export const eventTypeSchema = z.enum(eventTypes).meta({ id: "EventType" });

const byId = pathIds({ id: "webhook" });

export const webhooksDomain: V1Domain = {
  tag,
  paths: {
    "/v1/webhooks": {
      post: op({
        operationId: "createWebhook",
        summary: "Register a webhook",
        description:
          "Before answering, the server POSTs a signed `webhook.verified` event with a `challenge` to the URL; answering 200 with exactly the challenge within 10 s makes the webhook `active`, otherwise it is created as `verification_failed` with a `status_reason` (retry with `/verify`). At most 20 webhooks per account (409 beyond).",
        access: { scope: "webhooks:write" },
        body: createWebhookInput,
        idempotent: true,
        success: { status: "201", description: "The webhook, with its secret.", schema: createdWebhookOutput },
      }),
      get: op({
        operationId: "listWebhooks",
        summary: "List webhooks",
        description: "Oldest first. Secrets are never returned again.",
        access: { scope: "webhooks:read" },
        query: paginationQuery,
        success: { status: "200", description: "A page of webhooks.", schema: page(webhookOutput) },
      }),
    },
    "/v1/webhooks/{id}": {
      get: op({
        operationId: "getWebhook",
        summary: "Get a webhook",
        access: { scope: "webhooks:read" },
        path: byId,
        success: { status: "200", description: "The webhook.", schema: webhookOutput },
      }),
      patch: op({
        operationId: "updateWebhook",
        summary: "Update a webhook",
        description: "Send at least one field. Disabling stops deliveries at once. Re-enabling, or a new URL for a live webhook, re-runs the verification challenge before answering.",
        access: { scope: "webhooks:write" },
        path: byId,
        body: updateWebhookInput,
        success: { status: "200", description: "The updated webhook.", schema: webhookOutput },
      }),
      delete: op({
        operationId: "deleteWebhook",
        summary: "Delete a webhook",
        description: "Deletes the webhook with its deliveries and log; scheduled attempts stop.",
        access: { scope: "webhooks:delete" },
        path: byId,
        success: deleted,
      }),
    },
    "/v1/webhooks/{id}/verify": {
      post: op({
        operationId: "verifyWebhook",
        summary: "Re-run the verification challenge",
        description: "Sends a new `webhook.verified` challenge and answers with the outcome: `active`, or `verification_failed` with the reason. No body.",
        access: { scope: "webhooks:write" },
        path: byId,
        success: { status: "200", description: "The webhook with its new status.", schema: webhookOutput },
      }),
    },
    "/v1/webhooks/{id}/logs": {
      get: op({
        operationId: "listWebhookLogs",
        summary: "List delivery attempts",
        description: "Newest first.",
        access: { scope: "webhooks:read" },
        path: byId,
        query: webhookLogsQuery,
        success: { status: "200", description: "A page of attempts.", schema: page(attemptOutput) },
      }),
    },
    "/v1/webhooks/{id}/stats": {
      get: op({
        operationId: "getWebhookStats",
        summary: "Delivery statistics",
        access: { scope: "webhooks:read" },
        path: byId,
        query: webhookStatsQuery,
        success: { status: "200", description: "Statistics of the window.", schema: webhookStatsOutput },
      }),
    },
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
      post: op({
        operationId: "retryWebhookDelivery",
        summary: "Redeliver now",
        description:
          "Sends the same event again (same body and event id) now and answers with the attempt. A delivery still on its retry schedule has its next attempt brought forward; a finished one gets an extra attempt. 409 for a verification challenge, a webhook that is not active, or an attempt already in progress. No body.",
        access: { scope: "webhooks:write" },
        path: pathIds({ id: "webhook", delivery_id: "delivery" }),
        success: { status: "201", description: "The attempt just made.", schema: attemptOutput },
        errors: [409],
      }),
    },
  },
};
