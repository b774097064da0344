import { paginationQuery } from "@/lib/platform/pagination";
import { apiRoute, defineRoute } from "@/lib/api/route";
import { listConversationMessages } from "@/lib/messages/messages";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "messages:read" }, query: paginationQuery }, ({ ctx, params, query }) =>
    listConversationMessages({ ctx, conversationId: params.id, limit: query.limit, cursor: query.cursor }),
  ),
});
