import { apiRoute, defineRoute } from "@/lib/api/route";
import { listWebhookLogs } from "@/lib/webhooks/list-webhook-logs";
import { webhookLogsQuery } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "webhooks:read" }, query: webhookLogsQuery }, ({ ctx, params, query }) =>
    listWebhookLogs({ ctx, id: params.id, ...query }),
  ),
});
