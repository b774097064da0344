import { apiRoute, defineRoute, noContent } from "@/lib/api/route";
import { authorize } from "@/lib/api/access";
import { deleteConversation, getConversation } from "@/lib/conversations/conversations";
import { updateConversationInput } from "@/lib/conversations/schemas";
import { updateConversation } from "@/lib/teams/routing";
import { openConversation } from "@/lib/inbox/open-conversation";
import { getConversationQuery } from "@/lib/inbox/open-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  GET: apiRoute({ access: { auth: "scope", scope: "conversations:read" }, query: getConversationQuery }, ({ ctx, params, query }) => {
    if (query.include.length === 0) return getConversation({ ctx, id: params.id });
    // Messages bring their own scope, as on their own endpoint.
    if (query.include.includes("messages")) authorize(ctx, "messages:read");
    return openConversation({ ctx, id: params.id, include: query.include, limit: query.limit });
  }),
  PATCH: apiRoute({ access: { auth: "scope", scope: "conversations:write" }, body: updateConversationInput }, ({ ctx, params, body }) =>
    updateConversation({ ctx, id: params.id, input: body }),
  ),
  DELETE: apiRoute({ access: { auth: "scope", scope: "conversations:delete" } }, async ({ ctx, params }) => {
    await deleteConversation({ ctx, id: params.id });
    return noContent();
  }),
});
