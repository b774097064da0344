import { apiRoute, defineRoute } from "@/lib/api/route";
import { listRecipients } from "@/lib/campaigns/campaigns";
import { recipientsQuery } from "@/lib/campaigns/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "config:read" }, query: recipientsQuery }, ({ ctx, params, query }) =>
    listRecipients({ ctx, id: params.id, limit: query.limit, cursor: query.cursor, status: query.status }),
  ),
});
