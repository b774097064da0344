import { apiRoute, created, defineRoute } from "@/lib/api/route";
import { redeliver } from "@/lib/webhooks/redeliver";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "webhooks:write" } }, async ({ ctx, params }) =>
    created(await redeliver({ ctx, id: params.id, deliveryId: params.delivery_id })),
  ),
});
