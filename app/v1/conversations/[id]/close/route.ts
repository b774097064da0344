import { apiRoute, defineRoute } from "@/lib/api/route";
import { closeConversation } from "@/lib/conversations/conversations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "conversations:write" } }, ({ ctx, params }) => closeConversation({ ctx, id: params.id })),
});
