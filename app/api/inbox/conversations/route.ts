import { apiRoute, defineRoute } from "@/lib/api/route";
import { inboxQuery, listInbox } from "@/lib/inbox/list-inbox";

// The inbox's own list (latest activity first, search); integrations use /v1/conversations.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: inboxQuery }, ({ ctx, query }) => listInbox({ ctx, query })),
});
