import { apiRoute, defineRoute } from "@/lib/api/route";
import { listConversations } from "@/lib/conversations/conversations";
import { listConversationsQuery } from "@/lib/conversations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: listConversationsQuery }, ({ ctx, query }) =>
    listConversations({ ctx, limit: query.limit, cursor: query.cursor, status: query.status, assignedTo: query.assigned_to, label: query.label, team: query.team, priority: query.priority, sort: query.sort }),
  ),
});
