import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { deleteConversation, getConversation } from "@/lib/conversations/conversations";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" } }, ({ ctx, params }) => getConversation({ ctx, id: params.id })),
  DELETE: apiRoute({ access: { auth: "scope", scope: "conversations:delete" } }, async ({ ctx, params }) => {
    await deleteConversation({ ctx, id: params.id });
    return noContent();
  }),
});
