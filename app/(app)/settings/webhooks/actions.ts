"use server";

import { action, recordId } from "@/lib/server/action";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { redeliver } from "@/lib/webhooks/redeliver";
import { createWebhookInput, updateWebhookInput } from "@/lib/webhooks/schemas";
import { updateWebhook } from "@/lib/webhooks/update-webhook";
import { verifyWebhook } from "@/lib/webhooks/verify-webhook";

// The same verbs as the API, so both answer the same way. The form shows one error a field
// (`events`, not `events.2`); the list and every endpoint's page under it are refreshed.
const admin = { role: "admin", revalidate: { layout: "/settings/webhooks" }, topLevelFields: true } as const;

export const createWebhookAction = action({ ...admin, schema: createWebhookInput }, (input, ctx) => createWebhook({ ctx, input }));

export const updateWebhookAction = action({ ...admin, args: [recordId, updateWebhookInput] }, ([id, input], ctx) => updateWebhook({ ctx, id, input }));

export const verifyWebhookAction = action({ ...admin, schema: recordId }, (id, ctx) => verifyWebhook({ ctx, id }));

export const deleteWebhookAction = action({ ...admin, schema: recordId }, async (id, ctx) => {
  await deleteWebhook({ ctx, id });
  return { id };
});

export const redeliverAction = action({ ...admin, args: [recordId, recordId] }, ([id, deliveryId], ctx) => redeliver({ ctx, id, deliveryId }));
