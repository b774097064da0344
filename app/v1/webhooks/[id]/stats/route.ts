import { apiRoute, defineRoute } from "@/lib/api/route";
import { getWebhookStats } from "@/lib/webhooks/get-webhook-stats";
import { webhookStatsQuery } from "@/lib/webhooks/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "webhooks:read" }, query: webhookStatsQuery }, ({ ctx, params, query }) =>
    getWebhookStats({ ctx, id: params.id, window: query.window }),
  ),
});
