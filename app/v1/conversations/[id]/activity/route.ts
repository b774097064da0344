import { listActivity } from "@/lib/activity/list-activity";
import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, defineRoute } from "@/lib/api/route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: paginationQuery }, ({ ctx, params, query }) =>
    listActivity({ ctx, conversationId: params.id, limit: query.limit, cursor: query.cursor }),
  ),
});
