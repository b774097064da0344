import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { createWebhook, webhookCreationSecrets } from "@/lib/webhooks/create-webhook";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { createWebhookInput } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "webhooks:read" }, query: paginationQuery }, ({ ctx, query }) => listWebhooks({ ctx, ...query })),
  POST: apiRoute({ access: { auth: "scope", scope: "webhooks:write" }, body: createWebhookInput, idempotent: webhookCreationSecrets }, async ({ ctx, body }) =>
    created(await createWebhook({ ctx, input: body })),
  ),
});
