import { apiRoute, defineRoute } from "@/lib/api/route";
import { verifyWebhook } from "@/lib/webhooks/verify-webhook";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "webhooks:write" } }, ({ ctx, params }) => verifyWebhook({ ctx, id: params.id })),
});
