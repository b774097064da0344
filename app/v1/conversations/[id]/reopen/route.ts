import { apiRoute, defineRoute } from "@/lib/api/route";
import { reopenConversation } from "@/lib/conversations/conversations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:write" } }, ({ ctx, params }) => reopenConversation({ ctx, id: params.id })),
});
