import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteConversation, getConversation } from "@/lib/conversations/conversations";
import { updateConversationInput } from "@/lib/conversations/schemas";
import { updateConversation } from "@/lib/teams/routing";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" } }, ({ ctx, params }) => getConversation({ ctx, id: params.id })),
  PATCH: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: updateConversationInput }, ({ ctx, params, body }) =>
    updateConversation({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "conversations:delete" } }, async ({ ctx, params }) => {
    await deleteConversation({ ctx, id: params.id });
    return noContent();
  }),
});
