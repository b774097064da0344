import { apiRoute, defineRoute } from "@/lib/api/route";
import { suggestAnswers } from "@/lib/profile/knowledge";
import { suggestionsInput } from "@/lib/profile/schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = defineRoute({
  POST: apiRoute({ access: { auth: "scope", scope: "messages:read" }, body: suggestionsInput }, ({ ctx, params }) =>
    suggestAnswers({ ctx, conversationId: params.id }),
  ),
});
