import { apiRoute, defineRoute } from "@/lib/api/route";
import { assignConversation } from "@/lib/conversations/conversations";
import { assignConversationInput } from "@/lib/conversations/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute(
    { access: { auth: "scope", scope: "conversations:write" }, body: assignConversationInput, allowEmptyBody: true },
    ({ ctx, params, body }) => assignConversation({ ctx, id: params.id, userId: body.user_id }),
  ),
});
