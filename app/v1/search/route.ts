import { apiRoute, defineRoute } from "@/lib/api/route";
import { searchQuery } from "@/lib/search/schemas";
import { searchConversations } from "@/lib/search/search";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: searchQuery }, ({ ctx, query }) =>
    searchConversations({ ctx, q: query.q, limit: query.limit, cursor: query.cursor }),
  ),
});
